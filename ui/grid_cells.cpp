#include "ui/grid_cells.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "core/error.hpp"

namespace simjoin::ui {

GridCells grid_cells(const GridStructure& grid, const PointSet& points) {
  const std::size_t m = grid.indexed_dims.size();
  if (grid.origin.size() != m || grid.cell_width <= 0)
    fail(ErrorKind::BadInput, "grid: origin has " + std::to_string(grid.origin.size()) +
                                  " entries for " + std::to_string(m) +
                                  " indexed dimensions, or cell width is not positive");
  for (int dim : grid.indexed_dims)
    if (dim < 0 || static_cast<std::size_t>(dim) >= points.dims())
      fail(ErrorKind::BadInput, "grid: indexed dimension " + std::to_string(dim) + " out of range");
  const std::size_t cells = grid.cell_count();
  if (grid.cell_end.size() != cells || grid.cell_coords.size() != cells * m)
    fail(ErrorKind::BadInput, "grid: cell ranges or coordinates do not match the cell list");
  GridCells out;
  out.dims = m;
  out.coords = grid.cell_coords;
  for (std::size_t c = 0; c < cells; ++c) {
    const std::uint32_t begin = grid.cell_begin[c], end = grid.cell_end[c];
    if (begin >= end || end > grid.point_order.size() || grid.point_order[begin] >= points.size())
      fail(ErrorKind::BadInput, "grid: cell " + std::to_string(c) + " has an invalid point range");
    out.counts.push_back(end - begin);
  }
  return out;
}

std::optional<std::size_t> cell_of(const GridStructure& grid, std::uint32_t point) {
  const auto at = std::find(grid.point_order.begin(), grid.point_order.end(), point);
  const auto position = static_cast<std::uint32_t>(at - grid.point_order.begin());
  const auto cell = std::upper_bound(grid.cell_end.begin(), grid.cell_end.end(), position);
  if (at == grid.point_order.end() || cell == grid.cell_end.end()) return std::nullopt;
  return static_cast<std::size_t>(cell - grid.cell_end.begin());
}

std::vector<Cell2d> cells_in_plane(const GridCells& cells, std::size_t dim_x, std::size_t dim_y) {
  if (dim_x >= cells.dims || dim_y >= cells.dims)
    fail(ErrorKind::Usage, "grid view: dimension is not indexed by the grid");
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> plane;
  for (std::size_t c = 0; c < cells.counts.size(); ++c) {
    const std::int64_t* row = &cells.coords[c * cells.dims];
    plane[{row[dim_x], row[dim_y]}] += cells.counts[c];
  }
  std::vector<Cell2d> out;
  out.reserve(plane.size());
  for (const auto& [xy, count] : plane) out.push_back({xy.first, xy.second, count});
  return out;
}

bool searches(const std::int64_t* from, const std::int64_t* to, std::size_t dims, bool unicomp) {
  std::size_t last_diff = dims;
  for (std::size_t j = 0; j < dims; ++j) {
    const std::int64_t delta = to[j] - from[j];
    if (delta < -1 || delta > 1) return false;
    if (delta != 0) last_diff = j;
  }
  if (last_diff == dims || !unicomp) return true;
  return (from[last_diff] & 1) != 0;
}

std::vector<std::size_t> searched_cells(const GridCells& cells, const std::vector<std::int64_t>& from,
                                        bool unicomp) {
  std::vector<std::size_t> rows;
  for (std::size_t c = 0; c < cells.counts.size(); ++c)
    if (searches(from.data(), &cells.coords[c * cells.dims], cells.dims, unicomp)) rows.push_back(c);
  return rows;
}

}  // namespace simjoin::ui
