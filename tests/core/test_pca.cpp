#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/points/pca.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using simjoin::testing::test_seed;

TEST(Pca, RecoversKnownAxes) {
  // Points t * u + s * v with orthonormal u, v in 3-D and var(t) >> var(s): PC1 = +-t, PC2 = +-s.
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> wide(0, 10), narrow(0, 1);
  const double u[3] = {0.6, 0.8, 0}, v[3] = {0, 0, 1};
  const std::size_t n = 2000;
  PointSet points(n, 3);
  std::vector<double> t(n), s(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = wide(rng), s[i] = narrow(rng);
  // Centre both and make s exactly uncorrelated with t, so that u and v are the exact axes.
  auto centre = [n](std::vector<double>& x) {
    double mean = 0;
    for (double value : x) mean += value / n;
    for (double& value : x) value -= mean;
  };
  centre(t), centre(s);
  double ts = 0, tt = 0;
  for (std::size_t i = 0; i < n; ++i) ts += t[i] * s[i], tt += t[i] * t[i];
  for (std::size_t i = 0; i < n; ++i) s[i] -= ts / tt * t[i];
  for (std::size_t i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) points.point(i)[j] = float(5 + t[i] * u[j] + s[i] * v[j]);
  const Pca pca = fit_pca(points);
  EXPECT_GT(pca.explained(0), 0.95);
  EXPECT_LT(pca.explained(2), 1e-6);
  const auto xy = project_2d(points, pca, 0, 1);
  // Axes are defined up to sign.
  double dot_a = 0, dot_b = 0;
  for (std::size_t i = 0; i < n; ++i) dot_a += xy[2 * i] * t[i], dot_b += xy[2 * i + 1] * s[i];
  const double sign_a = dot_a > 0 ? 1 : -1, sign_b = dot_b > 0 ? 1 : -1;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(xy[2 * i], sign_a * t[i], 1e-3) << "point " << i;
    ASSERT_NEAR(xy[2 * i + 1], sign_b * s[i], 1e-3) << "point " << i;
  }
}
