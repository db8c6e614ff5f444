#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

#include "core/base/error.hpp"
#include "core/numeric/exact_test.hpp"
#include "core/points/eps_estimate.hpp"
#include "core/points/kth_neighbour.hpp"
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

// The distance from `row` to its k-th nearest other point, by brute force over all points.
double brute_kth(const PointSet& points, std::size_t row, std::size_t k, double scale) {
  std::vector<double> squared;
  squared.reserve(points.size());
  for (std::size_t j = 0; j < points.size(); ++j)
    if (j != row) squared.push_back(oracle_squared_distance(points.point(row), points.point(j), points.dims(), scale));
  std::nth_element(squared.begin(), squared.begin() + std::ptrdiff_t(k - 1), squared.end());
  return std::sqrt(squared[k - 1]) / scale;
}

// The median distance to the 10th neighbour over `count` random points (all where n <= count), each
// measured by brute force against all points: the median SciPy's cKDTree gives on all points, up to
// the sampling of the median (about 2.5 percentiles for 400 points).
double true_median_tenth(const PointSet& points, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> rows(points.size());
  std::iota(rows.begin(), rows.end(), std::size_t(0));
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(seed));
  rows.resize(std::min(count, rows.size()));
  std::vector<double> tenth(rows.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (std::size_t q = 0; q < rows.size(); ++q) tenth[q] = brute_kth(points, rows[q], 10, 1.0);
  std::nth_element(tenth.begin(), tenth.begin() + std::ptrdiff_t(tenth.size() / 2), tenth.end());
  return tenth[tenth.size() / 2];
}

struct SizedSet {
  Distribution kind;
  std::size_t n, dims, clusters;
  double sigma;
};
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
    EXPECT_EQ(estimate.queries, std::size_t(1000));
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

TEST(EpsEstimate, LargeLatticeIsMeasuredAgainstAllPoints) {
  const PointSet points = lattice_points(1000, 2, 1.0);  // a million points
  RunControl control;
  const EpsEstimate estimate = estimate_eps(points, control);
  EXPECT_EQ(estimate.reference, points.size());
  EXPECT_DOUBLE_EQ(estimate.eps, 2.0);
  EXPECT_DOUBLE_EQ(estimate.nearest, 1.0);
}

// Within 15 % of the median distance to the 10th neighbour over all points, from a thousand points to
// a million, uniform and clustered, 2-D to 128-D (5 M and 20 M: docs/teaching.md).
TEST(EpsEstimate, WithinFifteenPercentOfTheTrueMedianAtAnySize) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE(seed);
  const SizedSet sets[] = {
      {Distribution::Uniform, 1000, 2, 1, 0},          {Distribution::Clusters, 1000, 2, 5, 0.05},
      {Distribution::Uniform, 1'000'000, 2, 1, 0},     {Distribution::Clusters, 1'000'000, 3, 20, 0.02},
      {Distribution::Clusters, 100'000, 16, 30, 0.05}, {Distribution::Uniform, 10'000, 128, 1, 0},
      {Distribution::Clusters, 20'000, 128, 50, 0.05},
  };
  for (const SizedSet& set : sets) {
    SCOPED_TRACE(::testing::Message() << to_string(set.kind) << " n " << set.n << " d " << set.dims);
    const PointSet points = random_points(set.kind, set.n, set.dims, seed, 0, 1, set.clusters, set.sigma);
    RunControl control;
    const EpsEstimate estimate = estimate_eps(points, control);
    const double truth = true_median_tenth(points, 400, seed + 1);
    std::printf("%s, n %zu, d %zu: suggested %.3g, true median %.3g (%+.1f %%)\n", to_string(set.kind).c_str(), set.n,
                set.dims, estimate.eps, truth, 100 * (estimate.eps / truth - 1));
    EXPECT_NEAR(estimate.eps, truth, 0.15 * truth);
    EXPECT_EQ(estimate.reference, points.size());
    EXPECT_GE(estimate.queries, 100u);
  }
}

// The k-th neighbour of each query among all points, exactly as a brute force over all points finds
// it: through the grid (low dimensions), with duplicates, and with the queries thinned (high).
TEST(KthNeighbour, ExactAmongAllPoints) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE(seed);
  PointSet clustered = random_points(Distribution::Clusters, 300'000, 3, seed, -5, 5, 8, 0.02);
  for (std::size_t i = 0; i < 3000; ++i) std::copy_n(clustered.point(i), 3, clustered.point(i + 3000));
  const PointSet wide = random_points(Distribution::Clusters, 30'000, 64, seed + 1, 0, 1, 10, 0.1);
  for (const PointSet* points : std::initializer_list<const PointSet*>{&clustered, &wide}) {
    std::vector<std::size_t> rows{10};  // a point with a duplicate
    std::mt19937_64 random(seed + 2);
    for (int q = 0; q < 150; ++q)
      rows.push_back(std::uniform_int_distribution<std::size_t>(0, points->size() - 1)(random));
    RunControl control;
    const NeighbourDistances measured = kth_neighbour_distances(*points, rows, 7, control);
    ASSERT_GE(measured.rows.size(), 100u);
    ASSERT_EQ(measured.kth.size(), measured.rows.size());
    const Bounds64 bounds = compute_bounds(*points);
    double widest = 0;
    for (std::size_t a = 0; a < points->dims(); ++a) widest = std::max(widest, bounds.high[a] - bounds.low[a]);
    const double scale = std::ldexp(1.0, -std::ilogb(widest));
    const std::size_t m = measured.rows.size();
    std::vector<double> kth(m), nearest(m);
#pragma omp parallel for schedule(dynamic, 4)
    for (std::size_t q = 0; q < m; ++q)
      kth[q] = brute_kth(*points, measured.rows[q], 7, scale),
      nearest[q] = brute_kth(*points, measured.rows[q], 1, scale);
    for (std::size_t q = 0; q < m; ++q) {
      EXPECT_DOUBLE_EQ(measured.kth[q], kth[q]) << "row " << measured.rows[q];
      EXPECT_DOUBLE_EQ(measured.nearest[q], nearest[q]) << "row " << measured.rows[q];
    }
  }
}

TEST(EpsEstimate, DuplicatesAndDegenerateSets) {
  // Every point twelve times: the 10th neighbour is a duplicate, so a fraction of the diameter is used.
  const PointSet lattice = lattice_points(20, 2, 0.5);
  PointSet repeated(lattice.size() * 12, 2);
  for (std::size_t i = 0; i < repeated.size(); ++i)
    std::copy_n(lattice.point(i % lattice.size()), 2, repeated.point(i));
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
