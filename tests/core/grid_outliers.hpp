#pragma once
// Far outliers for the engines' tests (CPU and GPU): points in the unit cube plus a few at +-1e7 and
// 1e15, or a tail leading out of the cube; and the distance tests an engine makes on them.
#include <algorithm>
#include <cstdint>

#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"

namespace simjoin::testing {

// n uniform points in the unit cube of d dimensions, then `outliers` points at +-1e7 in every
// coordinate, and with `huge` one at 1e15. The outliers come in pairs 0.01 * (k + 1) apart in
// dimension k, pair p at the corner whose signs are the bits of p: the first is at -1e7 everywhere.
inline PointSet with_outliers(std::size_t n, std::size_t d, std::uint64_t seed, std::size_t outliers, bool huge) {
  const PointSet inliers = random_points(Distribution::Uniform, n, d, seed);
  PointSet points(n + outliers + (huge ? 1 : 0), d);
  std::copy(inliers.data(), inliers.data() + n * d, points.data());
  for (std::size_t o = 0; o < outliers; ++o)
    for (std::size_t k = 0; k < d; ++k)
      points.point(n + o)[k] = ((o / 2 >> k) & 1 ? 1e7 : -1e7) + (o % 2 ? 0.01 * double(k + 1) : 0.0);
  if (huge)
    for (std::size_t k = 0; k < d; ++k) points.point(points.size() - 1)[k] = 1e15;
  return points;
}

// `points` followed by a tail of `count` points `step` apart along dimension 0, from x = 1 + step,
// in the middle of the other dimensions: its end lies outside the middle of the data, where
// run_engine sets far points apart, while its pairs chain back into the bulk.
inline PointSet with_tail(const PointSet& points, std::size_t count, double step) {
  const std::size_t n = points.size(), d = points.dims();
  PointSet out(n + count, d);
  std::copy(points.data(), points.data() + n * d, out.data());
  for (std::size_t t = 0; t < count; ++t) {
    out.point(n + t)[0] = 1 + step * double(t + 1);
    for (std::size_t k = 1; k < d; ++k) out.point(n + t)[k] = 0.5;
  }
  return out;
}

// The distance tests of `engine` joining `a` with itself (b null) or with b through run_engine.
inline std::uint64_t compared_pairs(Engine& engine, const PointSet& a, const PointSet* b, double eps) {
  JoinParams params;
  params.eps = eps;
  CountSink sink;
  RunControl control;
  return run_engine(engine, {&a, b}, params, sink, control).stats.compared_pairs;
}

}  // namespace simjoin::testing
