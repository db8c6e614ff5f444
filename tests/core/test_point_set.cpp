// PointSet helpers: bounds on every thread agree with a plain pass, for small and large sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/points/point_set.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;

TEST(PointSet, BoundsMatchAPlainPass) {
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(400000)})
    for (const std::size_t d : {1, 3, 9}) {
      PointSet points = simjoin::testing::random_points(Distribution::Uniform, n, d, rng(), -5, 5);
      // Extremes at random rows, so that every thread's range may hold one.
      for (std::size_t k = 0; k < d; ++k) {
        points.point(rng() % n)[k] = -100.0 - double(k);
        points.point(rng() % n)[k] = 100.0 + double(k);
      }
      const Bounds64 bounds = compute_bounds(points);
      ASSERT_EQ(bounds.low.size(), d);
      for (std::size_t k = 0; k < d; ++k) {
        double low = points.point(0)[k], high = low;
        for (std::size_t i = 0; i < n; ++i) {
          low = std::min(low, points.point(i)[k]);
          high = std::max(high, points.point(i)[k]);
        }
        EXPECT_EQ(bounds.low[k], low) << "n " << n << " d " << d << " dim " << k;
        EXPECT_EQ(bounds.high[k], high) << "n " << n << " d " << d << " dim " << k;
      }
    }
  EXPECT_TRUE(compute_bounds(PointSet(0, 2)).low.empty());
}
