#pragma once
// Compares an engine's pairs with the oracle's. Exact engines must return exactly the oracle's pairs
// (core/numeric/exact_test.hpp), so there is no tolerance.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/pair_sink.hpp"

namespace simjoin {

struct VerifyReport {
  std::vector<Pair> missing;     // in the oracle, not in the result
  std::vector<Pair> extra;       // in the result, not in the oracle
  std::uint64_t duplicates = 0;  // pairs the result holds more than once
  bool ok() const { return missing.empty() && extra.empty() && duplicates == 0; }
  std::string summary() const;
};

// `got` and `expected` need not be sorted.
VerifyReport compare_pairs(std::vector<Pair> got, std::vector<Pair> expected);

}  // namespace simjoin
