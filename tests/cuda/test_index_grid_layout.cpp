// The grid layout of gpu-grid on the host: cell width, adjacency under rounding, indexed dimensions
// and 64-bit id overflow. Runs without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cuda/grid_layout.hpp"
#include "tests/core/oracle_check.hpp"

namespace simjoin::gpu {
namespace {

long long coord(const GridLayout& layout, std::size_t j, float x) {
  return grid_cell_coord(x, layout.origin[j], layout.cell_width, (long long)layout.cells[j]);
}

TEST(GridLayout, PairsWithinEpsLandInAdjacentCells) {
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 random(seed);
  for (double eps : {1e-3, 0.1, 0.3, 7.0}) {
    const Bounds bounds{{-50.0f, 0.0f}, {50.0f, 1000.0f}};
    const GridLayout layout = choose_grid_layout(bounds, 1'000'000, eps);
    ASSERT_FALSE(layout.dims.empty());
    EXPECT_GE(layout.cell_width, eps);
    std::uniform_real_distribution<float> x(-50, 50), y(0, 1000), direction(-1, 1);
    for (int t = 0; t < 200000; ++t) {
      // A point, and one exactly (in float32) at distance <= eps along a random direction.
      const float p[2] = {x(random), y(random)};
      const float dx = direction(random), dy = direction(random);
      const double norm = std::hypot(dx, dy);
      if (norm == 0) continue;
      float q[2] = {float(p[0] + eps * dx / norm), float(p[1] + eps * dy / norm)};
      const float sx = q[0] - p[0], sy = q[1] - p[1];
      if (sx * sx + sy * sy > float(eps) * float(eps)) continue;  // the float32 test rejects it
      for (std::size_t j = 0; j < layout.dims.size(); ++j) {
        const int dim = layout.dims[j];
        EXPECT_LE(std::llabs(coord(layout, j, p[dim]) - coord(layout, j, q[dim])), 1)
            << "eps " << eps << " p " << p[dim] << " q " << q[dim];
      }
    }
  }
}

TEST(GridLayout, IdsNeverOverflow) {
  // 64 dimensions, tiny eps: full indexing would need 10^6^64 ids.
  const Bounds bounds{std::vector<float>(64, 0.0f), std::vector<float>(64, 1.0f)};
  const GridLayout layout = choose_grid_layout(bounds, 1'000'000'000, 1e-6);
  EXPECT_LE(layout.dims.size(), std::size_t(kMaxIndexedDims));
  long double product = 1;
  for (std::uint64_t c : layout.cells) product *= c;
  EXPECT_LE(product, std::ldexp(1.0L, 62));
  EXPECT_EQ(layout.id_count, std::uint64_t(product));
  std::uint64_t stride = 1;
  for (std::size_t j = 0; j < layout.dims.size(); ++j) {
    EXPECT_EQ(layout.strides[j], stride);
    stride *= layout.cells[j];
  }
}

TEST(GridLayout, IndexesSubsetOfManyDimensions) {
  const Bounds bounds{std::vector<float>(32, 0.0f), std::vector<float>(32, 100.0f)};
  const GridLayout layout = choose_grid_layout(bounds, 2'000'000, 8.0);
  EXPECT_GE(layout.dims.size(), 2u);
  EXPECT_LT(layout.dims.size(), 32u);
  ASSERT_FALSE(layout.notes.empty());
  EXPECT_NE(layout.notes.back().find("of 32 dimensions"), std::string::npos);
}

TEST(GridLayout, FlatDimensionsAreNotIndexed) {
  // Dimension 1 is constant: indexing it filters nothing.
  const Bounds bounds{{0.0f, 5.0f, 0.0f}, {100.0f, 5.0f, 100.0f}};
  const GridLayout layout = choose_grid_layout(bounds, 1'000'000, 0.5);
  for (int dim : layout.dims) EXPECT_NE(dim, 1);
}

TEST(GridLayout, ZeroEpsAndPointExtent) {
  EXPECT_GT(grid_cell_width(0.0, 0.0), 0.0);
  EXPECT_GT(grid_cell_width(0.0, 10.0), 0.0);
  const Bounds bounds{{1.0f, 1.0f}, {1.0f, 1.0f}};
  const GridLayout layout = choose_grid_layout(bounds, 10, 0.0);
  EXPECT_TRUE(layout.dims.empty());
  EXPECT_EQ(layout.id_count, 1u);
}

TEST(GridLayout, HugeExtentWidensCells) {
  const Bounds bounds{{-1e30f}, {1e30f}};
  const GridLayout layout = choose_grid_layout(bounds, 1000, 1e-3);
  ASSERT_EQ(layout.dims.size(), 1u);
  EXPECT_LE(layout.cells[0], (std::uint64_t(1) << 30) + 3);
  EXPECT_LE(coord(layout, 0, -1e30f), 1);  // the minimum sits in the first cells, not clamped away
}

}  // namespace
}  // namespace simjoin::gpu
