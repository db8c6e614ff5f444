#pragma once
// Host-side shape of the epsilon-grid of gpu-grid: cell width (grid_cell_width, core/numeric/numeric_rules.hpp,
// the same as cpu-grid's), which dimensions are indexed, and the cell coordinates
// (core/numeric/grid_cell_order.hpp). Pure arithmetic, so it is tested without a GPU.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/numeric/grid_cell_order.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::gpu {

inline constexpr int kMaxIndexedDims = 8;

struct GridLayout {
  double cell_width = 1;             // grid_cell_width: pairs within the search radius lie in adjacent cells
  std::vector<int> dims;             // indexed dimensions; dims[0] varies fastest in the cells' order
  std::vector<double> origin;        // per indexed dimension: cell c covers [origin + c w, origin + (c+1) w)
  std::vector<std::uint64_t> cells;  // per indexed dimension: coordinates lie in [0, cells)
  std::vector<std::string> notes;
};

// The middle 99 % of the points' values per dimension, from an even sample of at most 4096 rows:
// what the cost model sizes the cells by, so that a few far outliers cannot make them look empty.
Bounds bulk_bounds(const PointSet32& points);

// Chooses the indexed dimensions: the cells cover `bounds` (of A, or of A and B together); up to
// kMaxIndexedDims dimensions with the most cells over `bulk` (bulk_bounds of A), as many as minimise
// an estimated per-query cost (3^(k-1) lookups of a row of 3 cells plus the expected candidates in
// 3^k cells, the points spread evenly over the bulk's cells).
GridLayout choose_grid_layout(const Bounds& bounds, const Bounds& bulk, std::size_t indexed_points,
                              double search_radius);

// The cell coordinate of x along indexed dimension j, clamped into [0, cells) (which only absorbs
// rounding at the edges): the same formula on host and device.
SIMJOIN_HOST_DEVICE inline long long grid_cell_coord(double x, double origin, double width, long long cells) {
  const long long c = cell_floor(x, origin, width);
  return c < 0 ? 0 : (c >= cells ? cells - 1 : c);
}

}  // namespace simjoin::gpu
