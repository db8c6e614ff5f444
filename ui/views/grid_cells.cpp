#include "ui/views/grid_cells.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/base/error.hpp"
#include "core/engines/grid_cell_order.hpp"

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

PlaneGrid plane_grid(const std::vector<double>& st, double width, std::array<double, 2> origin) {
  if (!(width > 0)) fail(ErrorKind::Usage, "grid view: the cell width must be positive");
  PlaneGrid grid;
  grid.width = width;
  grid.origin = origin;
  const std::size_t n = st.size() / 2;
  grid.point_cell.resize(n);
  grid.has_cell.assign(n, true);
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> counts;  // keyed (y, x)
  for (std::size_t i = 0; i < n; ++i) {
    for (int axis = 0; axis < 2; ++axis) {
      // cell_floor is exact only below 2^61 cells from the origin; farther points get no cell.
      if (!(std::fabs(st[2 * i + axis] - origin[axis]) / width < kMaxCellsPerDim)) grid.has_cell[i] = false;
    }
    if (!grid.has_cell[i]) continue;
    const CellXY c{cell_floor(st[2 * i], origin[0], width), cell_floor(st[2 * i + 1], origin[1], width)};
    grid.point_cell[i] = c;
    ++counts[{c[1], c[0]}];
  }
  grid.cells = sorted_cells(counts);
  return grid;
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
