#pragma once
// An exact-join reference for the tests, written apart from the engines: it includes nothing from
// core/ and shares no code with core/numeric/exact_test.hpp, core/frame/join_frame.cpp or core/frame/far_points.cpp.
//
// float64 predicate (README, "Exactness"): for eps > 0 take k with eps * 2^k in [1, 2); scale each
// coordinate difference (p - q, rounded to double) by 2^k (exact unless it overflows or falls below
// the normal range), square it, sum in dimension order in float64, and compare the sum with
// (eps * 2^k)^2; within when the sum is <= that square. k may pass 1023 (eps subnormal): the
// scaled values are then still doubles, and std::ldexp computes them exactly. For eps = 0 a pair is
// within when every difference is exactly zero (the limit of the rule: no scale at which a nonzero
// difference squares to zero).
//
// Real predicate: the same question on real numbers, with exact integer arithmetic on the doubles
// (real_predicate.hpp).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace simjoin::reference {

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// The float64 predicate on two points of d coordinates.
bool within(const double* p, const double* q, std::size_t d, double eps);

// Every pair (i, j), i < j, of the n x d row-major values within eps, sorted.
std::vector<Pair> self_join(const double* values, std::size_t n, std::size_t d, double eps);

// Every pair (i in a, j in b) within eps, sorted.
std::vector<Pair> join(const double* a, std::size_t na, const double* b, std::size_t nb, std::size_t d, double eps);

}  // namespace simjoin::reference
