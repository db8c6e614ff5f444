#include "core/engines/epsilon_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/engines/grid_cost.hpp"
#include "core/parallel.hpp"

namespace simjoin {

namespace {
// Cells per dimension stay below 2^26, which keeps the rounding of a cell coordinate below 2^-24
// cells (see cell_width).
constexpr double kMaxCellsPerDim = double(1 << 26);

// Why points within eps always land in the same or adjacent cells: the width is eps * (1 + 1e-6),
// so two such points' exact quotients (x - origin) / width differ by at most 1 - 1e-6 (the oracle's
// float64 eps test admits at most eps * (1 + 1e-15)). Each quotient is computed in float64 with
// two roundings of at most 2^-53 relative on a value below 2^26 + 3, i.e. off by under 2^-25;
// two of them shift the difference by under 1e-6, so the floors differ by at most 1. For eps = 0
// equal points give equal quotients and so equal cells; the width then only has to be positive.
double cell_width(double eps, double max_extent) {
  const double width = std::max(eps * (1 + 1e-6), max_extent / kMaxCellsPerDim);
  return width > 0 ? width : 1.0;
}

// Widens [low, high] per dimension to cover the rows.
void cover(const PointRows& rows, std::vector<double>& low, std::vector<double>& high) {
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t k = 0; k < rows.dims(); ++k) {
      low[k] = std::min(low[k], double(rows.point(r)[k]));
      high[k] = std::max(high[k], double(rows.point(r)[k]));
    }
}

using Keyed = std::pair<std::uint64_t, std::uint32_t>;  // cell id, row

// Sorts by cell id, rows in order within a cell: an LSD radix sort, 8 bits a pass, as many passes
// as the largest id needs (two or three for most grids), so much faster than a comparison sort.
void sort_by_id(std::vector<Keyed>& keyed) {
  std::uint64_t largest = 0;
  for (const Keyed& e : keyed) largest = std::max(largest, e.first);
  std::vector<Keyed> sorted(keyed.size());
  for (unsigned shift = 0; shift < 64 && (largest >> shift) != 0; shift += 8) {
    std::size_t start[257] = {};
    for (const Keyed& e : keyed) ++start[((e.first >> shift) & 255) + 1];
    for (std::size_t b = 0; b < 256; ++b) start[b + 1] += start[b];
    for (const Keyed& e : keyed) sorted[start[(e.first >> shift) & 255]++] = e;
    keyed.swap(sorted);
  }
}

// Cell ids of the rows, and the rows sorted by cell (A), the distinct ids (B) and ranges (G).
void sort_into_cells(const PointRows& rows, const EpsilonGrid& grid, int threads, GridStructure& out) {
  const GridStructure& g = grid.structure();
  std::vector<Keyed> keyed(rows.size());
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::uint64_t id = 0;
    for (std::size_t s = 0; s < g.indexed_dims.size(); ++s)
      id += std::uint64_t(EpsilonGrid::cell_coordinate(g, rows.point(r), s)) * grid.stride(s);
    keyed[r] = {id, std::uint32_t(r)};
  }
  sort_by_id(keyed);
  out.point_order.resize(rows.size());
  for (std::size_t t = 0; t < keyed.size(); ++t) {
    out.point_order[t] = keyed[t].second;
    if (t == 0 || keyed[t].first != keyed[t - 1].first) {
      if (t != 0) out.cell_end.push_back(std::uint32_t(t));
      out.cell_ids.push_back(keyed[t].first);
      out.cell_begin.push_back(std::uint32_t(t));
    }
  }
  if (!keyed.empty()) out.cell_end.push_back(std::uint32_t(keyed.size()));
}
}  // namespace

std::int64_t EpsilonGrid::cell_coordinate(const GridStructure& g, const float* p, std::size_t s) {
  // The cells cover every point, so the clamp only absorbs rounding at the edges; clamping to whole
  // cells keeps adjacent cells adjacent.
  const double u = (double(p[g.indexed_dims[s]]) - g.origin[s]) / g.cell_width;
  return std::clamp(std::int64_t(std::floor(u)), std::int64_t(0), std::int64_t(g.cells_per_dim[s]) - 1);
}

EpsilonGrid::EpsilonGrid(const PointRows& points, const PointRows& queries, bool self_join, double eps,
                         int threads)
    : threads_(threads) {
  const std::size_t n = points.size(), d = points.dims();
  std::vector<double> low(d, std::numeric_limits<double>::infinity()), high(d, -low[0]);
  cover(points, low, high);
  if (!self_join) cover(queries, low, high);
  std::vector<double> extent(d, 0.0);
  for (std::size_t k = 0; k < d; ++k) extent[k] = std::max(0.0, high[k] - low[k]);  // 0 when empty
  const double width = cell_width(eps, *std::max_element(extent.begin(), extent.end()));
  grid_.cell_width = width;

  // Candidate dimensions by extent, widest first; one spanning under a cell width cannot prune, and
  // the linear ids must fit 64 bits. The cost model then keeps as many of them as pay off.
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return extent[x] > extent[y]; });
  std::string stopped;
  std::uint64_t total_cells = 1;
  for (int k : order) {
    if (grid_.indexed_dims.size() == kMaxIndexed || extent[k] < width) break;
    const std::uint64_t cells = std::uint64_t(std::floor(extent[k] / width)) + 3;
    if (__builtin_mul_overflow(total_cells, cells, &total_cells)) {
      stopped = "; no more dimensions: 64-bit cell ids would overflow";
      break;
    }
    grid_.indexed_dims.push_back(k);
    grid_.cells_per_dim.push_back(cells);
    grid_.origin.push_back(low[k] - width);
  }
  const IndexChoice choice = choose_indexed_dims(points, queries, self_join, grid_, threads);
  const std::size_t m = choice.dims;
  grid_.indexed_dims.resize(m);
  grid_.cells_per_dim.resize(m);
  grid_.origin.resize(m);
  strides_.assign(m, 1);
  for (std::size_t s = 1; s < m; ++s) strides_[s] = strides_[s - 1] * grid_.cells_per_dim[s - 1];

  std::string dims;
  for (int k : grid_.indexed_dims) dims += (dims.empty() ? "" : ",") + std::to_string(k);
  choice_ = "indexed " + std::to_string(m) + " of " + std::to_string(d) + " dimensions (" +
            (dims.empty() ? "none: one cell" : dims) + "), cell width " + std::to_string(width) + "; " +
            choice.reason + stopped;

  sort_into_cells(points, *this, threads, grid_);
  columns_.resize(n * d);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = 0; k < d; ++k) columns_[k * n + t] = points.point(grid_.point_order[t])[k];
  occupied_.assign(m, {});
  for (std::uint64_t id : grid_.cell_ids)
    for (std::size_t s = 0; s < m; ++s) occupied_[s].push_back(coordinate(id, s));
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
  grouped.cells_per_dim = grid_.cells_per_dim;
  sort_into_cells(rows, *this, threads_, grouped);
  return grouped;
}

bool EpsilonGrid::occupied(std::size_t s, std::int64_t c) const {
  if (c < 0 || std::uint64_t(c) >= grid_.cells_per_dim[s]) return false;
  return std::binary_search(occupied_[s].begin(), occupied_[s].end(), c);
}

std::pair<std::uint32_t, std::uint32_t> EpsilonGrid::run(std::uint64_t low, std::uint64_t high) const {
  const auto& ids = grid_.cell_ids;
  const auto first = std::lower_bound(ids.begin(), ids.end(), low);
  auto last = first;
  while (last != ids.end() && *last <= high) ++last;
  if (first == last) return {0, 0};
  return {grid_.cell_begin[std::size_t(first - ids.begin())], grid_.cell_end[std::size_t(last - ids.begin()) - 1]};
}

std::uint64_t cell_bytes(const GridStructure& cells) {
  return cells.cell_ids.size() * (sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t)) +
         cells.point_order.size() * sizeof(std::uint32_t);
}

std::uint64_t EpsilonGrid::memory_bytes() const {
  std::uint64_t bytes = cell_bytes(grid_) + columns_.size() * sizeof(float);
  for (const auto& values : occupied_) bytes += values.size() * sizeof(std::int64_t);
  return bytes;
}

}  // namespace simjoin
