// The principal-components filter (core/engines/component_filter.hpp, core/numeric/lifted_bound.hpp):
// every pair within a radius stays within the lifted radius of each other as float32 lifted points, on
// rows exactly of low rank (where only the proof's margins keep the closest pairs inside), on a curved
// manifold with noise, far from the origin and with duplicates; and the sample picks few components for
// low-rank rows, leaves short rows and small joins whole, and stops once cancelled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/engines/component_filter.hpp"
#include "core/numeric/lifted_bound.hpp"
#include "tests/core/manifold_sets.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using simjoin::testing::test_seed;

namespace {

PointSet32 as_float32(const PointSet& points) {
  PointSet32 result(points.size(), points.dims());
  for (std::size_t i = 0; i < points.size() * points.dims(); ++i) result.data()[i] = float(points.data()[i]);
  return result;
}

// n float32 points offset + W z, z of `rank` Gaussian values: every point lies in one affine subspace
// but for float32's rounding.
PointSet32 linear_points(std::size_t n, std::size_t dims, std::size_t rank, double offset, std::uint64_t seed) {
  return as_float32(simjoin::testing::subspace_points(n, dims, rank, 0.0, offset, seed));
}

// The exact distance of two float32 rows of `dims` values (long double: each term exact to 2^-64).
long double exact_distance(const float* p, const float* q, std::size_t dims) {
  long double sum = 0;
  for (std::size_t t = 0; t < dims; ++t) {
    const long double diff = (long double)p[t] - (long double)q[t];
    sum += diff * diff;
  }
  return std::sqrt(sum);
}

struct Lifted {
  std::vector<float> rows;  // n x (k + 1)
  double max_norm = 0;
};

Lifted lift_all(const PointSet32& points, const ComponentFilter& filter) {
  Lifted lifted{std::vector<float>(points.size() * filter.lifted_dims()), 0};
  for (std::size_t i = 0; i < points.size(); ++i)
    lifted.max_norm =
        std::max(lifted.max_norm, lifted::lift(points.point(i), filter.centre.data(), filter.basis.data(), filter.k,
                                               filter.dims, &lifted.rows[i * filter.lifted_dims()]));
  return lifted;
}

// For each of the `closest` closest pairs, at its own distance as the radius: its lifted points must lie
// within the lifted radius. Returns how many of them lie farther apart as lifted points than in d.
std::size_t expect_closest_pairs_inside(const PointSet32& points, const ComponentFilter& filter, std::size_t closest) {
  const Lifted lifted = lift_all(points, filter);
  const std::size_t m = filter.lifted_dims();
  struct Candidate {
    long double distance;
    std::size_t i, j;
  };
  std::vector<Candidate> pairs;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = i + 1; j < points.size(); ++j)
      pairs.push_back({exact_distance(points.point(i), points.point(j), points.dims()), i, j});
  std::partial_sort(pairs.begin(), pairs.begin() + std::ptrdiff_t(closest), pairs.end(),
                    [](const Candidate& x, const Candidate& y) { return x.distance < y.distance; });
  std::size_t farther = 0;
  for (std::size_t p = 0; p < closest; ++p) {
    const Candidate& pair = pairs[p];
    const double radius = std::nextafter(double(pair.distance), INFINITY);
    const long double apart = exact_distance(&lifted.rows[pair.i * m], &lifted.rows[pair.j * m], m);
    const double limit = lifted::lifted_radius(radius, lifted.max_norm, filter.error_factor, filter.k);
    EXPECT_LE(apart, (long double)limit) << "pair " << pair.i << ", " << pair.j << " at " << double(pair.distance);
    farther += apart > pair.distance;
  }
  return farther;
}

ComponentFilter always_filter(const PointSet32& points, double radius) {
  const auto filter = choose_component_filter(points, nullptr, radius, ComponentFilterMode::Always, test_seed());
  if (!filter) ADD_FAILURE() << "no filter where one was asked for";
  return filter.value_or(ComponentFilter{});
}

}  // namespace

// Rows of rank 8 lie in the lifted points' subspace but for rounding: their lifted distances fall on
// either side of the true ones, so that only the error bound keeps the closest pairs inside.
TEST(ComponentFilter, ExactlyLowRankPairsStayInsideTheLiftedRadius) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet32 points = linear_points(700, 256, 8, 3.0, seed);
  const ComponentFilter filter = always_filter(points, 0.5);
  ASSERT_EQ(filter.k, 15u);
  EXPECT_GT(expect_closest_pairs_inside(points, filter, 2000), 100u) << "rounding should push some pairs out";
  // Far from the origin, float32's rounding of the coordinates adds a residual of its own.
  const PointSet32 far = linear_points(700, 256, 8, -2.5e4, seed + 1);
  expect_closest_pairs_inside(far, always_filter(far, 0.5), 2000);
}

TEST(ComponentFilter, ManifoldPairsAndDuplicatesStayInsideTheLiftedRadius) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet32 points = as_float32(simjoin::testing::manifold_points(800, 320, 6, 0.002, 1e3, seed));
  for (std::size_t i = 0; i < 40; ++i)  // duplicates: pairs at distance 0
    std::copy_n(points.point(i), points.dims(), points.point(points.size() - 1 - i));
  const ComponentFilter filter = always_filter(points, 0.3);
  ASSERT_GT(filter.k, 0u);
  expect_closest_pairs_inside(points, filter, 3000);
}

// With the radius of the closest pairs, 15 components of rank-8 rows let through few more pairs than
// lie within it; the sample's share says so.
TEST(ComponentFilter, PicksFewComponentsForLowRankRows) {
  const PointSet32 points = linear_points(3000, 384, 8, 1.0, test_seed());
  const auto filter = choose_component_filter(points, nullptr, 0.6, ComponentFilterMode::Always, 3);
  ASSERT_TRUE(filter);
  EXPECT_EQ(filter->k, 15u);
  EXPECT_EQ(filter->basis.size(), filter->k * 384);
  EXPECT_LT(filter->candidate_share, 0.05);
  EXPECT_NE(filter->note().find("15 top components"), std::string::npos) << filter->note();
  const PointSet32 b = linear_points(500, 384, 8, 1.0, test_seed() + 1);
  EXPECT_TRUE(choose_component_filter(points, &b, 0.6, ComponentFilterMode::Always, 3));
}

TEST(ComponentFilter, AutoLeavesShortRowsAndSmallJoinsWhole) {
  EXPECT_FALSE(component_filter_considered(ComponentFilterMode::Auto, 255));
  EXPECT_TRUE(component_filter_considered(ComponentFilterMode::Auto, 256));
  EXPECT_FALSE(component_filter_considered(ComponentFilterMode::Off, 960));
  EXPECT_TRUE(component_filter_considered(ComponentFilterMode::Always, 32));
  EXPECT_FALSE(component_filter_considered(ComponentFilterMode::Always, 31));
  const PointSet32 points = linear_points(2000, 256, 8, 0.0, test_seed());
  EXPECT_FALSE(choose_component_filter(points, nullptr, 0.5, ComponentFilterMode::Auto, 1));  // a small join
  EXPECT_FALSE(choose_component_filter(points, nullptr, 0.5, ComponentFilterMode::Off, 1));
  EXPECT_TRUE(choose_component_filter(points, nullptr, 0.5, ComponentFilterMode::Always, 1));
}

// The sample's work (tens of milliseconds of the host on long rows) stops at a cancel.
TEST(ComponentFilter, StopsOnceCancelled) {
  const PointSet32 points = linear_points(2000, 256, 8, 0.0, test_seed());
  RunControl control;
  control.request_cancel();
  try {
    choose_component_filter(points, nullptr, 0.5, ComponentFilterMode::Always, 1, &control);
    FAIL() << "no Error(Cancelled)";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled) << error.what();
  }
  RunControl running;
  EXPECT_TRUE(choose_component_filter(points, nullptr, 0.5, ComponentFilterMode::Always, 1, &running));
}
