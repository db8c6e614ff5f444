#pragma once
// Compares an engine's pairs with the oracle's. Pairs that differ are tolerated only when their
// float64 distance lies within the rounding tolerance of eps (see float32_tolerance).
#include <cstdint>
#include <string>
#include <vector>

#include "core/pair_sink.hpp"
#include "core/point_set.hpp"

namespace simjoin {

// Relative tolerance on the squared distance for engines computing in float32 on d dimensions:
// each of the d squared differences and the running sum round at 2^-24, so the squared distance is
// off by at most about (d + 2) * 2^-24 relative; we allow four times that, and at least 1e-6.
double float32_tolerance(std::size_t dims);

struct VerifyReport {
  std::vector<Pair> missing;  // in the oracle, not in the result, outside tolerance
  std::vector<Pair> extra;    // in the result, not in the oracle, outside tolerance
  std::uint64_t tolerated = 0;   // differing pairs within tolerance of eps
  std::uint64_t duplicates = 0;  // pairs the result holds more than once
  bool ok() const { return missing.empty() && extra.empty() && duplicates == 0; }
  std::string summary() const;
};

// `got` and `expected` need not be sorted. b is null for a self-join.
VerifyReport compare_pairs(std::vector<Pair> got, std::vector<Pair> expected, const PointSet& a,
                           const PointSet* b, double eps, double relative_tolerance);

}  // namespace simjoin
