#include "ui/views/grid_cells.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

#include "core/base/error.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin::ui {

namespace {

std::vector<Cell2d> sorted_cells(const std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t>& counts) {
  std::vector<Cell2d> out;
  out.reserve(counts.size());
  for (const auto& [yx, count] : counts) out.push_back({yx.second, yx.first, count});
  return out;
}

std::int64_t floor_div(std::int64_t c, std::int64_t f) { return c >= 0 ? c / f : -((-c + f - 1) / f); }

}  // namespace

namespace {
// The non-empty cells of the points that have one, counted in an array over the cells' bounding box
// where it is at most a few times the points (a pass over the points, no search: 5 M points in tens
// of milliseconds), else by sorting their coordinates. Sorted by (y, x) either way.
std::vector<Cell2d> count_cells(const PlaneGrid& grid) {
  std::int64_t low[2] = {INT64_MAX, INT64_MAX}, high[2] = {INT64_MIN, INT64_MIN};
  for (std::size_t i = 0; i < grid.point_cell.size(); ++i)
    for (int axis = 0; axis < 2 && grid.has_cell[i]; ++axis) {
      low[axis] = std::min(low[axis], grid.point_cell[i][axis]);
      high[axis] = std::max(high[axis], grid.point_cell[i][axis]);
    }
  if (low[0] > high[0]) return {};
  const double span = (double(high[0]) - double(low[0]) + 1) * (double(high[1]) - double(low[1]) + 1);
  if (span <= 4.0 * double(grid.point_cell.size()) + (1 << 20)) {
    const auto width = std::size_t(high[0] - low[0] + 1);
    std::vector<std::uint32_t> counts(std::size_t(span), 0);
    for (std::size_t i = 0; i < grid.point_cell.size(); ++i)
      if (grid.has_cell[i])
        ++counts[std::size_t(grid.point_cell[i][1] - low[1]) * width + std::size_t(grid.point_cell[i][0] - low[0])];
    std::vector<Cell2d> cells;
    for (std::size_t c = 0; c < counts.size(); ++c)
      if (counts[c]) cells.push_back({low[0] + std::int64_t(c % width), low[1] + std::int64_t(c / width), counts[c]});
    return cells;
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> yx;
  for (std::size_t i = 0; i < grid.point_cell.size(); ++i)
    if (grid.has_cell[i]) yx.emplace_back(grid.point_cell[i][1], grid.point_cell[i][0]);
  std::sort(yx.begin(), yx.end());
  std::vector<Cell2d> cells;
  for (std::size_t i = 0; i < yx.size(); ++i)
    if (cells.empty() || cells.back().y != yx[i].first || cells.back().x != yx[i].second)
      cells.push_back({yx[i].second, yx[i].first, 1});
    else
      ++cells.back().count;
  return cells;
}
}  // namespace

PlaneGrid plane_grid(const std::vector<double>& st, double width, std::array<double, 2> origin) {
  if (!(width > 0)) fail(ErrorKind::Usage, "grid view: the cell width must be positive");
  PlaneGrid grid;
  grid.width = width;
  grid.origin = origin;
  const std::size_t n = st.size() / 2;
  grid.point_cell.resize(n);
  grid.has_cell.assign(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    for (int axis = 0; axis < 2; ++axis) {
      // cell_floor is exact only below 2^61 cells from the origin; farther points get no cell.
      if (!(std::fabs(st[2 * i + axis] - origin[axis]) / width < kMaxCellsPerDim)) grid.has_cell[i] = false;
    }
    if (!grid.has_cell[i]) continue;
    grid.point_cell[i] = {cell_floor(st[2 * i], origin[0], width), cell_floor(st[2 * i + 1], origin[1], width)};
  }
  grid.cells = count_cells(grid);
  return grid;
}

PlaneGrid engine_plane_grid(const GridStructure& grid, std::size_t slot_x, std::size_t slot_y) {
  PlaneGrid plane;
  plane.width = grid.cell_width;
  plane.origin = {grid.origin[slot_x], grid.origin[slot_y]};
  const std::size_t m = grid.indexed_dims.size();
  std::vector<Cell2d> cells(grid.cell_count());
  for (std::size_t c = 0; c < cells.size(); ++c)
    cells[c] = {grid.cell_coords[c * m + slot_x], grid.cell_coords[c * m + slot_y],
                grid.cell_end[c] - grid.cell_begin[c]};
  // Cells that differ only in the other slots fall on one 2-D cell: their counts add up.
  plane.cells = m > 2 ? aggregate_cells(cells, 1) : std::move(cells);
  if (m == 2)
    std::sort(plane.cells.begin(), plane.cells.end(), [](const Cell2d& a, const Cell2d& b) {
      return std::pair{a.y, a.x} < std::pair{b.y, b.x};
    });
  return plane;
}

std::array<double, 2> median_origin(const std::vector<double>& st) {
  std::array<double, 2> origin{};
  const std::size_t n = st.size() / 2;
  if (n == 0) return origin;
  std::vector<double> values(n);
  for (int axis = 0; axis < 2; ++axis) {
    for (std::size_t i = 0; i < n; ++i) values[i] = st[2 * i + axis];
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(n / 2), values.end());
    origin[axis] = values[n / 2];
  }
  return origin;
}

std::vector<Cell2d> aggregate_cells(const std::vector<Cell2d>& cells, std::int64_t factor) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> counts;
  for (const Cell2d& c : cells) counts[{floor_div(c.y, factor), floor_div(c.x, factor)}] += c.count;
  return sorted_cells(counts);
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

}  // namespace simjoin::ui
