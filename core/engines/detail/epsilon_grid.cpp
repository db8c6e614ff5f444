#include "core/engines/detail/epsilon_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/base/parallel.hpp"
#include "core/engines/detail/grid_cell_sort.hpp"
#include "core/engines/detail/grid_cost.hpp"
#include "core/numeric/grid_cell_order.hpp"

namespace simjoin {

namespace {
// Widens [low, high] per dimension to cover the rows.
void cover(const PointRows& rows, std::vector<double>& low, std::vector<double>& high) {
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t k = 0; k < rows.dims(); ++k) {
      low[k] = std::min(low[k], double(rows.point(r)[k]));
      high[k] = std::max(high[k], double(rows.point(r)[k]));
    }
}

}  // namespace

std::int64_t EpsilonGrid::cell_coordinate(const GridStructure& g, const float* p, std::size_t s) {
  // The cells start a width below every point, so the clamp only absorbs rounding; clamping to a
  // whole cell keeps adjacent cells adjacent.
  return std::max(cell_floor(p[g.indexed_dims[s]], g.origin[s], g.cell_width), std::int64_t(0));
}

EpsilonGrid::EpsilonGrid(const PointRows& points, const PointRows& queries, bool self_join, double search_radius,
                         int threads, const RunControl* control)
    : threads_(threads) {
  const std::size_t n = points.size(), d = points.dims();
  std::vector<double> low(d, std::numeric_limits<double>::infinity()), high(d, -low[0]);
  cover(points, low, high);
  if (!self_join) cover(queries, low, high);
  std::vector<double> extent(d, 0.0);
  for (std::size_t k = 0; k < d; ++k) extent[k] = std::max(0.0, high[k] - low[k]);  // 0 when empty
  const double width = grid_cell_width(search_radius, *std::max_element(extent.begin(), extent.end()));
  grid_.cell_width = width;

  // Candidate dimensions by extent, widest first; one spanning under a cell width cannot prune. The
  // cost model then keeps as many of them as pay off.
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return extent[x] > extent[y]; });
  for (int k : order) {
    if (grid_.indexed_dims.size() == kMaxIndexed || extent[k] < width) break;
    grid_.indexed_dims.push_back(k);
    grid_.origin.push_back(low[k] - width);
  }
  const IndexChoice choice = choose_indexed_dims(points, queries, self_join, grid_, threads, control);
  const std::size_t m = choice.dims;
  tested_share_ = float(choice.tested_share);
  grid_.indexed_dims.resize(m);
  grid_.origin.resize(m);

  std::string dims;
  for (int k : grid_.indexed_dims) dims += (dims.empty() ? "" : ",") + std::to_string(k);
  choice_ = "indexed " + std::to_string(m) + " of " + std::to_string(d) + " dimensions (" +
            (dims.empty() ? "none: one cell" : dims) + "), cell width " + std::to_string(width) + "; " + choice.reason;

  bits_ = cell_coordinate_bits(grid_, high);
  sort_into_cells(points, grid_, bits_, threads, grid_, control);
  columns_.resize(n * d);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = 0; k < d; ++k) columns_[k * n + t] = points.point(grid_.point_order[t])[k];
  if (control) control->throw_if_cancelled();
  fill_occupied();
}

void EpsilonGrid::fill_occupied() {
  const std::size_t m = indexed();
  occupied_.assign(m, {});
  occupied_bits_.assign(m, {});
  // A bitmap no larger than the list would be (cpu-kmeans builds many small grids).
  const std::uint64_t most = 64 * std::max<std::uint64_t>(grid_.cell_count(), 512);
  for (std::size_t s = 0; s < m; ++s)
    if (bits_[s] <= kOccupiedBits && (std::uint64_t(1) << bits_[s]) <= most)
      occupied_bits_[s].assign((std::size_t(1) << bits_[s]) / 64 + 1, 0);
  for (std::size_t c = 0; c < grid_.cell_coords.size(); ++c) {
    const std::int64_t value = grid_.cell_coords[c];
    std::vector<std::uint64_t>& words = occupied_bits_[c % m];
    // A coordinate past the guessed bits (sort_into_cells then sorted without them) goes to the list.
    if (!words.empty() && std::size_t(value) / 64 < words.size())
      words[std::size_t(value) / 64] |= std::uint64_t(1) << (value % 64);
    else
      occupied_[c % m].push_back(value);
  }
  for (auto& values : occupied_) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }
}

GridStructure EpsilonGrid::group(const PointRows& rows) const {
  GridStructure grouped;
  grouped.cell_width = grid_.cell_width;
  grouped.indexed_dims = grid_.indexed_dims;
  grouped.origin = grid_.origin;
  sort_into_cells(rows, grid_, bits_, threads_, grouped, nullptr);
  return grouped;
}

bool EpsilonGrid::occupied(std::size_t s, std::int64_t c) const {
  const std::vector<std::uint64_t>& words = occupied_bits_[s];
  if (c >= 0 && std::size_t(c) / 64 < words.size() && (words[std::size_t(c) / 64] >> (c % 64) & 1) != 0) return true;
  return std::binary_search(occupied_[s].begin(), occupied_[s].end(), c);
}

EpsilonGrid::RowWalk::RowWalk(const EpsilonGrid& grid, const std::int64_t* c)
    : cells_(grid.grid_), c_(c), m_(int(grid.indexed())), count_(std::uint32_t(grid.grid_.cell_count())) {}

void EpsilonGrid::RowWalk::start(std::int64_t x) {
  // The binary search waits for the first row asked for: unicomp skips some rows altogether.
  started_ = true;
  cell_run(cells_.cell_coords.data(), count_, m_, c_, x - 1, x + 1, first_, last_);
}

std::uint64_t cell_bytes(const GridStructure& cells) {
  return cells.cell_coords.size() * sizeof(std::int64_t) + cells.cell_count() * 2 * sizeof(std::uint32_t) +
         cells.point_order.size() * sizeof(std::uint32_t);
}

std::uint64_t EpsilonGrid::memory_bytes() const {
  std::uint64_t bytes = cell_bytes(grid_) + columns_.size() * sizeof(float);
  for (const auto& values : occupied_) bytes += values.size() * sizeof(std::int64_t);
  for (const auto& words : occupied_bits_) bytes += words.size() * sizeof(std::uint64_t);
  return bytes;
}

}  // namespace simjoin
