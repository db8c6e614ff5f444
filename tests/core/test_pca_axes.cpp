#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/points/pca_axes.hpp"

using namespace simjoin;

namespace {
// Places on a map: longitude spread over 300 degrees, latitude over 100, weakly correlated.
PointSet places(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> lon(-150, 150), noise(-50, 50);
  PointSet points(2000, 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double x = lon(rng);
    points.point(i)[0] = std::clamp(0.1 * x + noise(rng), -90.0, 90.0);  // lat
    points.point(i)[1] = x;                                              // lon
  }
  points.column_names = {"lat", "lon"};
  return points;
}
}  // namespace

TEST(PcaAxes, SignFollowsTheLargestLoadingWhateverTheSolverReturns) {
  const PointSet points = places(3);
  Pca pca = fit_pca(points);
  orient_axes(pca);
  Pca flipped = pca;
  for (double& value : flipped.components) value = -value;  // the other sign the solver may return
  orient_axes(flipped);
  EXPECT_EQ(flipped.components, pca.components);
  // PC1 is mostly longitude, pointing east; PC2 mostly latitude, pointing north: the map as drawn.
  EXPECT_GT(pca.components[1], 0.9);
  EXPECT_GT(pca.components[2], 0.9);
  EXPECT_EQ(main_columns(pca, 0), std::vector<std::size_t>{1});
  const std::string label = axis_label(pca, 0, points);
  EXPECT_TRUE(label.starts_with("PC1 (") && label.ends_with(" %): lon")) << label;
}

TEST(PcaAxes, LabelsNameTheColumnsThatMakeAnAxis) {
  Pca pca;
  pca.dims = 3;
  pca.mean = {0, 0, 0};
  pca.variance = {3, 1, 0};
  const double r = std::sqrt(0.5);
  // Axis 0: two columns in equal parts; axis 1: one column; axis 2: the rest.
  pca.components = {-r, 0, -r, 0, 1, 0, r, 0, -r};
  orient_axes(pca);
  EXPECT_EQ(pca.components[0], r);  // equal magnitudes: the first column decides
  EXPECT_EQ(pca.components[2], r);
  PointSet unnamed(1, 3);
  EXPECT_EQ(axis_label(pca, 0, unnamed), "PC1 (75.0 %): x0, x2");
  EXPECT_EQ(axis_label(pca, 1, unnamed), "PC2 (25.0 %): x1");
  EXPECT_EQ(describe_loadings(pca, 2, unnamed, 2), "x0 0.71, x2 -0.71");
  unnamed.column_names = {"a", "b", "c"};
  EXPECT_EQ(describe_loadings(pca, 0, unnamed), "a 0.71, c 0.71, b 0.00");
}
