#pragma once
// The real-number predicate dist(p, q) <= eps on the doubles' exact values, with no rounding: every
// finite double is an integer times a power of two, so after a common power of two the squared
// distance and eps^2 are integers, compared exactly (Boost.Multiprecision's cpp_int).
#include <cstddef>
#include <cstdint>

namespace simjoin::reference {

bool within_real(const double* p, const double* q, std::size_t d, double eps);

// How often the float64 predicate (reference_join.hpp) and the real one disagree over the pairs
// i < j of a set.
struct Disagreements {
  std::uint64_t pairs = 0;        // pairs compared
  std::uint64_t float_only = 0;   // within for float64, not for the reals
  std::uint64_t real_only = 0;    // within for the reals, not for float64
  std::uint64_t real_within = 0;  // pairs within for the reals
  std::uint64_t total() const { return float_only + real_only; }
};

Disagreements count_disagreements(const double* values, std::size_t n, std::size_t d, double eps);

}  // namespace simjoin::reference
