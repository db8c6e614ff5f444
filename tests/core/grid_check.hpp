#pragma once
// The checks every grid engine's structure must pass (CPU and GPU tests): distinct non-empty cells
// sorted as tuples with the last slot most significant, contiguous point ranges that together hold
// each point once, and each point inside its cell as the reported origin and width place it. The
// engines place points from float32 frame coordinates, so a point on a cell border may sit in either
// cell (1e-5 of a cell).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <vector>

#include "core/join/run_stats.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::testing {

// `absent`: the rows (ascending) that no cell holds, the far points run_engine joins apart.
inline void expect_valid_grid(const GridStructure& grid, const PointSet& points,
                              const std::vector<std::uint32_t>& absent = {}) {
  const std::size_t m = grid.indexed_dims.size();
  ASSERT_EQ(grid.cell_coords.size(), grid.cell_count() * m);
  ASSERT_EQ(grid.cell_begin.size(), grid.cell_count());
  ASSERT_EQ(grid.cell_end.size(), grid.cell_count());
  const auto tuple = [&](std::size_t c) {
    std::vector<std::int64_t> key(grid.cell_coords.begin() + c * m, grid.cell_coords.begin() + (c + 1) * m);
    std::reverse(key.begin(), key.end());
    return key;
  };
  for (std::size_t c = 1; c < grid.cell_count(); ++c) EXPECT_LT(tuple(c - 1), tuple(c)) << "cell " << c;
  std::vector<std::uint32_t> order = grid.point_order;
  std::sort(order.begin(), order.end());
  std::vector<std::uint32_t> every(points.size()), held;
  std::iota(every.begin(), every.end(), 0u);
  std::set_difference(every.begin(), every.end(), absent.begin(), absent.end(), std::back_inserter(held));
  ASSERT_EQ(order, held) << "the cells do not hold each point once";
  std::uint32_t expected_begin = 0;
  for (std::size_t c = 0; c < grid.cell_count(); ++c) {
    ASSERT_EQ(grid.cell_begin[c], expected_begin);
    ASSERT_LT(grid.cell_begin[c], grid.cell_end[c]);  // non-empty cells only
    expected_begin = grid.cell_end[c];
    for (std::uint32_t r = grid.cell_begin[c]; r < grid.cell_end[c]; ++r)
      for (std::size_t s = 0; s < m; ++s) {
        const double coordinate = double(grid.cell_coords[c * m + s]);
        const double u = (points.point(grid.point_order[r])[grid.indexed_dims[s]] - grid.origin[s]) / grid.cell_width;
        EXPECT_GE(u, coordinate - 1e-5) << "point " << grid.point_order[r] << " slot " << s;
        EXPECT_LE(u, coordinate + 1 + 1e-5) << "point " << grid.point_order[r] << " slot " << s;
      }
  }
  EXPECT_EQ(expected_begin, held.size());
}

}  // namespace simjoin::testing
