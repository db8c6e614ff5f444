// The grid layout of gpu-grid on the host: cell width, adjacency under rounding, indexed dimensions,
// and the same cells as cpu-grid's. Runs without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/engines/detail/epsilon_grid.hpp"
#include "core/frame/join_frame.hpp"
#include "cuda/detail/grid_layout.hpp"
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
    const GridLayout layout = choose_grid_layout(bounds, bounds, 1'000'000, eps);
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

TEST(GridLayout, TinyCellsStillIndex) {
  // 64 dimensions, tiny eps: 10^6 cells a side, far beyond any linear id over the bounding box;
  // cells are keyed by their coordinates, so as many dimensions as pay are indexed.
  const Bounds bounds{std::vector<float>(64, 0.0f), std::vector<float>(64, 1.0f)};
  const GridLayout layout = choose_grid_layout(bounds, bounds, 1'000'000'000, 1e-6);
  EXPECT_GE(layout.dims.size(), 2u);
  EXPECT_LE(layout.dims.size(), std::size_t(kMaxIndexedDims));
  for (std::uint64_t c : layout.cells) EXPECT_LE(c, 1'000'003u);
}

TEST(GridLayout, IndexesSubsetOfManyDimensions) {
  const Bounds bounds{std::vector<float>(32, 0.0f), std::vector<float>(32, 100.0f)};
  const GridLayout layout = choose_grid_layout(bounds, bounds, 2'000'000, 8.0);
  EXPECT_GE(layout.dims.size(), 2u);
  EXPECT_LT(layout.dims.size(), 32u);
  ASSERT_FALSE(layout.notes.empty());
  EXPECT_NE(layout.notes.back().find("of 32 dimensions"), std::string::npos);
}

TEST(GridLayout, FarOutliersKeepTheBulkChoice) {
  // 100,000 points in the unit cube and 10 at +-1e7: the cells stay eps wide and the dimensions
  // indexed are those of the cube alone.
  PointSet32 points(100'010, 3);
  std::mt19937_64 random(simjoin::testing::test_seed());
  std::uniform_real_distribution<float> unit(0, 1);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) points.point(i)[k] = i < 100'000 ? unit(random) : ((i + k) % 2 ? 1e7f : -1e7f);
  const Bounds cube = bulk_bounds(points);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_LT(cube.high[k] - cube.low[k], 1.0f);
  const GridLayout alone = choose_grid_layout(cube, cube, 100'000, 0.01);
  const GridLayout skewed = choose_grid_layout(compute_bounds(points), cube, points.size(), 0.01);
  EXPECT_EQ(skewed.dims, alone.dims);
  EXPECT_EQ(skewed.cell_width, alone.cell_width);
  ASSERT_FALSE(skewed.dims.empty());
  EXPECT_GT(skewed.cells[0], std::uint64_t(1e9));
}

TEST(GridLayout, FlatDimensionsAreNotIndexed) {
  // Dimension 1 is constant: indexing it filters nothing.
  const Bounds bounds{{0.0f, 5.0f, 0.0f}, {100.0f, 5.0f, 100.0f}};
  const GridLayout layout = choose_grid_layout(bounds, bounds, 1'000'000, 0.5);
  for (int dim : layout.dims) EXPECT_NE(dim, 1);
}

TEST(GridLayout, ZeroEpsAndPointExtent) {
  EXPECT_GT(grid_cell_width(0.0, 0.0), 0.0);
  EXPECT_GT(grid_cell_width(0.0, 10.0), 0.0);
  const Bounds bounds{{1.0f, 1.0f}, {1.0f, 1.0f}};
  const GridLayout layout = choose_grid_layout(bounds, bounds, 10, 0.0);
  EXPECT_TRUE(layout.dims.empty());
}

TEST(GridLayout, HugeExtentWidensCells) {
  const Bounds bounds{{-1e30f}, {1e30f}};
  const GridLayout layout = choose_grid_layout(bounds, bounds, 1000, 1e-3);
  ASSERT_EQ(layout.dims.size(), 1u);
  EXPECT_LE(layout.cells[0], (std::uint64_t(1) << 60) + 3);
  EXPECT_LE(coord(layout, 0, -1e30f), 1);  // the minimum sits in the first cells, not clamped away
}

// Per row of `rows`, its cell's coordinate in slot s of a cpu-grid cell grouping.
std::vector<std::int64_t> cpu_cell_coords(const GridStructure& cells, std::size_t s, std::size_t rows) {
  const std::size_t m = cells.indexed_dims.size();
  std::vector<std::int64_t> coords(rows, -1);
  for (std::size_t c = 0; c < cells.cell_count(); ++c)
    for (std::uint32_t t = cells.cell_begin[c]; t < cells.cell_end[c]; ++t)
      coords[cells.point_order[t]] = cells.cell_coords[c * m + s];
  return coords;
}

// In every dimension both grids index, the same origin and, for every row of `points`, the same cell.
// Returns how many dimensions both index.
std::size_t expect_same_cells(const GridStructure& cpu, const GridLayout& gpu, const PointSet32& points) {
  std::size_t shared = 0;
  for (std::size_t s = 0; s < cpu.indexed_dims.size(); ++s)
    for (std::size_t j = 0; j < gpu.dims.size(); ++j) {
      if (gpu.dims[j] != cpu.indexed_dims[s]) continue;
      ++shared;
      EXPECT_EQ(cpu.origin[s], gpu.origin[j]) << "dimension " << gpu.dims[j];
      const std::vector<std::int64_t> coords = cpu_cell_coords(cpu, s, points.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < points.size(); ++i)
        differ += coords[i] != coord(gpu, j, points.point(i)[gpu.dims[j]]);
      EXPECT_EQ(differ, 0u) << "points in other cells, dimension " << gpu.dims[j];
    }
  return shared;
}

// cpu-grid (EpsilonGrid) and gpu-grid (choose_grid_layout, grid_cell_coord) put the same points, moved
// into the same frame, into the same cells: the same width (grid_cell_width, core/numeric/numeric_rules.hpp)
// and, in every dimension both index, the same origin and coordinates. Which dimensions each indexes
// is its own cost model's choice.
TEST(GridLayout, SameCellsAsCpuGrid) {
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  using simjoin::testing::random_points;
  for (std::size_t d : {2, 3})
    for (double eps : {0.004, 0.03})
      for (bool self : {true, false}) {
        SCOPED_TRACE("d = " + std::to_string(d) + ", eps = " + std::to_string(eps) + (self ? ", self" : ", A join B"));
        const PointSet a64 = random_points(Distribution::Uniform, 20000, d, seed + d);
        const PointSet b64 = random_points(Distribution::Clusters, 5000, d, seed + d + 1);
        const JoinFrame frame(a64, self ? nullptr : &b64, eps);
        const PointSet32 a = frame.to_frame(a64), b = frame.to_frame(b64);
        const double radius = frame.search_radius();
        const EpsilonGrid cpu(PointRows(a), PointRows(self ? a : b), self, radius, 1);
        const GridLayout gpu =
            choose_grid_layout(joint_bounds(a, self ? nullptr : &b), bulk_bounds(a), a.size(), radius);
        EXPECT_EQ(cpu.structure().cell_width, gpu.cell_width);
        EXPECT_GE(expect_same_cells(cpu.structure(), gpu, a), 1u) << "no dimension indexed by both";
        if (!self) expect_same_cells(cpu.group(PointRows(b)), gpu, b);
      }
}

}  // namespace
}  // namespace simjoin::gpu
