#pragma once
// Far outliers for the grid engines' tests (CPU and GPU): points in the unit cube plus a few at
// +-1e7 and 1e15, and the distance tests an engine makes with eps given directly in float32
// coordinates. Through run_engine the join frame widens the search radius by its rounding bound,
// which grows with the outliers' distance; without it the grid alone is measured.
#include <algorithm>
#include <cstdint>

#include "core/engine.hpp"
#include "core/join_frame.hpp"
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

// The distance tests of `engine` joining `a` with itself (b null) or with b, on their float32
// values as coordinates and eps as the search radius (no join frame).
inline std::uint64_t compared_without_frame(Engine& engine, const PointSet& a, const PointSet* b, double eps) {
  const auto to_float = [](const PointSet& points) {
    PointSet32 out(points.size(), points.dims());
    std::copy(points.data(), points.data() + points.size() * points.dims(), out.data());
    return out;
  };
  const PointSet32 a32 = to_float(a), b32 = b ? to_float(*b) : PointSet32();
  JoinInputs inputs;
  inputs.a = &a32;
  inputs.b = b ? &b32 : nullptr;
  inputs.exact_a = &a;
  inputs.exact_b = b;
  inputs.band = oracle_band(eps);
  inputs.band.reject = float(eps * eps * 1.01);
  JoinParams params;
  params.eps = eps;
  CountSink sink;
  RunControl control;
  return engine.run(inputs, params, sink, control).stats.compared_pairs;
}

}  // namespace simjoin::testing
