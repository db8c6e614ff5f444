#include "ui/views/grid_cells.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/base/error.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin::ui {

namespace {

std::int64_t floor_div(std::int64_t c, std::int64_t f) { return c >= 0 ? c / f : -((-c + f - 1) / f); }

}  // namespace

namespace {
// The cells of n entries summed per cell (entry(i, cell) says whether entry i has one, and sets its
// coordinates and count), in an array over the cells' bounding box where it is at most a few times
// the entries (a pass, no search: 5 M points in tens of milliseconds), else by sorting their
// coordinates. Sorted by (y, x) either way.
template <typename Entry>
std::vector<Cell2d> tally(std::size_t n, const Entry& entry) {
  std::int64_t low[2] = {INT64_MAX, INT64_MAX}, high[2] = {INT64_MIN, INT64_MIN};
  Cell2d c;
  for (std::size_t i = 0; i < n; ++i)
    if (entry(i, c)) {
      low[0] = std::min(low[0], c.x), high[0] = std::max(high[0], c.x);
      low[1] = std::min(low[1], c.y), high[1] = std::max(high[1], c.y);
    }
  if (low[0] > high[0]) return {};
  const double span = (double(high[0]) - double(low[0]) + 1) * (double(high[1]) - double(low[1]) + 1);
  std::vector<Cell2d> cells;
  if (span <= 4.0 * double(n) + (1 << 20)) {
    const auto width = std::size_t(high[0] - low[0] + 1);
    std::vector<std::uint32_t> counts(std::size_t(span), 0);
    for (std::size_t i = 0; i < n; ++i)
      if (entry(i, c)) counts[std::size_t(c.y - low[1]) * width + std::size_t(c.x - low[0])] += c.count;
    for (std::size_t k = 0; k < counts.size(); ++k)
      if (counts[k]) cells.push_back({low[0] + std::int64_t(k % width), low[1] + std::int64_t(k / width), counts[k]});
    return cells;
  }
  std::vector<Cell2d> all;
  for (std::size_t i = 0; i < n; ++i)
    if (entry(i, c)) all.push_back(c);
  std::sort(all.begin(), all.end(), [](const Cell2d& a, const Cell2d& b) {
    return std::pair{a.y, a.x} < std::pair{b.y, b.x};
  });
  for (const Cell2d& a : all)
    if (cells.empty() || cells.back().y != a.y || cells.back().x != a.x)
      cells.push_back(a);
    else
      cells.back().count += a.count;
  return cells;
}

// The non-empty cells of the points that have one.
std::vector<Cell2d> count_cells(const PlaneGrid& grid) {
  return tally(grid.point_cell.size(), [&](std::size_t i, Cell2d& c) {
    c = {grid.point_cell[i][0], grid.point_cell[i][1], 1};
    return bool(grid.has_cell[i]);
  });
}
}  // namespace

// The plain quotient q = fl(fl(x - origin) / width), where q lies far from every integer. The
// subtraction is exact where its result is subnormal, each operation is otherwise off by at most
// 2^-53 of its result, and a subnormal q by at most 2^-1075: q is within |q| 2^-51.9 + 2^-1075 of the
// exact quotient, and cell_floor floors a value within 2^-40 of that. So where q is farther than
// |q| 2^-50 + 2^-38 from every integer, the three floors agree. Nearer (about one point in 2^37 on
// data spread over cells), beyond 2^50 cells, and for inf or NaN, cell_floor decides: the view's cells
// are the engine's, without its exact steps for nearly every point.
std::int64_t display_cell(double x, double origin, double width) {
  const double q = (x - origin) / width;
  const double k = floor_value(q);
  const double guard = std::fabs(q) * 0x1p-50 + 0x1p-38;
  if (q - k > guard && k + 1 - q > guard) return std::int64_t(k);
  return cell_floor(x, origin, width);
}

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
    grid.point_cell[i] = {display_cell(st[2 * i], origin[0], width), display_cell(st[2 * i + 1], origin[1], width)};
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
  plane.cells = aggregate_cells(cells, 1);
  return plane;
}

std::shared_ptr<const PlaneGrid> PlaneGridCache::get(const std::string& key, const std::function<PlaneGrid()>& make) {
  {
    const std::lock_guard lock(mutex_);
    if (grid_ && key == key_) return grid_;
  }
  auto made = std::make_shared<const PlaneGrid>(make());
  const std::lock_guard lock(mutex_);
  key_ = key;
  grid_ = made;
  return made;
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
  return tally(cells.size(), [&](std::size_t i, Cell2d& c) {
    c = {floor_div(cells[i].x, factor), floor_div(cells[i].y, factor), cells[i].count};
    return true;
  });
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
