#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/eps_estimate.hpp"
#include "core/error.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
PointSet shifted(PointSet points, double offset) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < points.dims(); ++k) points.point(i)[k] += offset;
  return points;
}

// The median number of neighbours within eps, by the oracle.
std::size_t median_neighbours(const PointSet& points, double eps) {
  std::vector<std::size_t> counts(points.size());
  for (const Pair& pair : oracle_pairs(points, nullptr, eps)) ++counts[pair.i], ++counts[pair.j];
  std::nth_element(counts.begin(), counts.begin() + std::ptrdiff_t(counts.size() / 2), counts.end());
  return counts[counts.size() / 2];
}
}  // namespace

TEST(EpsEstimate, TenthNeighbourOfALatticeAtAnyScale) {
  // On a square lattice the 10th neighbour is two spacings away (4 at 1, 4 at sqrt 2, 4 at 2).
  for (const double spacing : {1e-7, 1.0, 3e5}) {
    SCOPED_TRACE(spacing);
    const PointSet points = shifted(lattice_points(60, 2, spacing), 1000 * spacing + 17);
    RunControl control;
    const EpsEstimate estimate = estimate_eps(points, control);
    EXPECT_DOUBLE_EQ(estimate.eps, 2 * spacing);
    EXPECT_NEAR(estimate.nearest, spacing, 1e-6 * spacing);
    EXPECT_NEAR(estimate.diameter, 59 * std::sqrt(2.0) * spacing, 1e-6 * spacing);
    EXPECT_EQ(estimate.reference, points.size());
    EXPECT_EQ(estimate.queries, std::size_t(2000));
    EXPECT_LT(estimate.low(), estimate.nearest);
    EXPECT_EQ(estimate.high(), estimate.diameter);
  }
}

TEST(EpsEstimate, TypicalPointHasAboutTenNeighbours) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Clusters, 3000, 3, test_seed(), -50, 50, 6, 0.1);
  RunControl control;
  const EpsEstimate estimate = estimate_eps(points, control);
  const std::size_t neighbours = median_neighbours(points, estimate.eps);
  EXPECT_GE(neighbours, 7u);
  EXPECT_LE(neighbours, 14u);
}

TEST(EpsEstimate, LargeSetsAreMeasuredAgainstASample) {
  const PointSet points = lattice_points(400, 2, 1.0);
  RunControl control;
  const EpsEstimate estimate = estimate_eps(points, control);
  EXPECT_LT(estimate.reference, points.size());
  // The sample's neighbour rank stands for the 10th of the whole lattice, two spacings: within 15 %
  // (the sample's rank is a count of a random subset; round to two digits adds 2.5 %).
  EXPECT_GE(estimate.eps, 2 * 0.85);
  EXPECT_LE(estimate.eps, 2 * 1.15);
}

TEST(EpsEstimate, DuplicatesAndDegenerateSets) {
  // Every point twelve times: the 10th neighbour is a duplicate, so a fraction of the diameter is used.
  const PointSet lattice = lattice_points(20, 2, 0.5);
  PointSet repeated(lattice.size() * 12, 2);
  for (std::size_t i = 0; i < repeated.size(); ++i) std::copy_n(lattice.point(i % lattice.size()), 2, repeated.point(i));
  RunControl control;
  const EpsEstimate estimate = estimate_eps(repeated, control);
  EXPECT_EQ(estimate.nearest, 0);
  EXPECT_DOUBLE_EQ(estimate.eps, round_significant(estimate.diameter / 100, 2));
  EXPECT_LT(estimate.low(), estimate.eps);

  const PointSet same(5, 3);  // five points at the origin
  const EpsEstimate degenerate = estimate_eps(same, control);
  EXPECT_EQ(degenerate.eps, 1);
  EXPECT_EQ(degenerate.diameter, 0);
  EXPECT_LT(degenerate.low(), 1);
  EXPECT_GT(degenerate.high(), 1);
  EXPECT_EQ(estimate_eps(PointSet(1, 2), control).eps, 1);
}

TEST(EpsEstimate, Cancellable) {
  RunControl control;
  control.request_cancel();
  try {
    estimate_eps(lattice_points(60, 2, 1.0), control);
    FAIL() << "expected a cancellation";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled);
  }
}

TEST(EpsEstimate, RoundsToSignificantDigits) {
  EXPECT_EQ(round_significant(0.0123456, 2), 0.012);
  EXPECT_EQ(round_significant(2345.6, 2), 2300);
  EXPECT_EQ(round_significant(4.56e-7, 2), 4.6e-7);
  EXPECT_EQ(round_significant(6.3447e6, 3), 6.34e6);
  EXPECT_EQ(round_significant(0.1, 3), 0.1);
}
