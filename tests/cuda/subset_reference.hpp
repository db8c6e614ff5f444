#pragma once
// Large GPU joins checked against the independent reference (tests/reference), which is a brute force
// and too slow for hundreds of thousands of points: the pairs an exact engine finds among a random
// subset of the points depend on no other point, so they must be exactly the reference's pairs of that
// subset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "core/join/engine.hpp"
#include "core/report/verify.hpp"
#include "tests/reference/reference_join.hpp"

namespace simjoin::testing {

// `count` distinct ids of [0, n), drawn with `seed`, ascending.
inline std::vector<std::uint32_t> random_subset(std::size_t n, std::size_t count, std::uint64_t seed) {
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  std::mt19937_64 rng(seed);
  std::shuffle(ids.begin(), ids.end(), rng);
  ids.resize(std::min(count, n));
  std::sort(ids.begin(), ids.end());
  return ids;
}

// The pairs of `pairs` (a self-join's) with both points in `subset`, renumbered to positions in it.
inline std::vector<Pair> pairs_among(const std::vector<Pair>& pairs, const std::vector<std::uint32_t>& subset) {
  std::vector<std::int64_t> position(subset.empty() ? 0 : subset.back() + 1, -1);
  for (std::size_t s = 0; s < subset.size(); ++s) position[subset[s]] = std::int64_t(s);
  std::vector<Pair> among;
  for (const Pair& pair : pairs) {
    if (pair.i >= position.size() || pair.j >= position.size()) continue;
    const std::int64_t i = position[pair.i], j = position[pair.j];
    if (i >= 0 && j >= 0) among.push_back({std::uint32_t(std::min(i, j)), std::uint32_t(std::max(i, j))});
  }
  return among;
}

// Compares a self-join's pairs over `points` with the reference's pairs of `count` random points of it.
inline VerifyReport compare_on_subset(const std::vector<Pair>& pairs, const PointSet& points, double eps,
                                      std::size_t count, std::uint64_t seed) {
  const std::vector<std::uint32_t> subset = random_subset(points.size(), count, seed);
  std::vector<double> values;
  values.reserve(subset.size() * points.dims());
  for (std::uint32_t id : subset) values.insert(values.end(), points.point(id), points.point(id) + points.dims());
  std::vector<Pair> expected;
  for (const auto& [i, j] : reference::self_join(values.data(), subset.size(), points.dims(), eps))
    expected.push_back({std::uint32_t(i), std::uint32_t(j)});
  EXPECT_FALSE(expected.empty()) << "no pair among the " << subset.size() << " points: the comparison tests nothing";
  return compare_pairs(pairs_among(pairs, subset), std::move(expected));
}

}  // namespace simjoin::testing
