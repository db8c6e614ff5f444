#include "core/engines/epsilon_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/engines/grid_cell_order.hpp"
#include "core/engines/grid_cost.hpp"
#include "core/parallel.hpp"

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

using Keyed = std::pair<std::uint64_t, std::uint32_t>;  // cell key, row

// Sorts by key, stably: an LSD radix sort, 8 bits a pass, as many passes as the largest key needs
// (two or three for most grids), so much faster than a comparison sort.
void sort_by_key(std::vector<Keyed>& keyed) {
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

// Cell coordinates of the rows, and the rows sorted by cell (A), the distinct cells (B) and their
// ranges (G). The geometry is g's (cell width, indexed dimensions, origin).
// Checks `control` between its passes over the rows (each a few milliseconds at a million rows).
void sort_into_cells(const PointRows& rows, const GridStructure& g, int threads, GridStructure& out,
                     const RunControl* control) {
  const auto check = [control] {
    if (control) control->throw_if_cancelled();
  };
  const std::size_t n = rows.size(), m = g.indexed_dims.size();
  std::vector<std::int64_t> coords(n * m);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t s = 0; s < m; ++s) coords[r * m + s] = EpsilonGrid::cell_coordinate(g, rows.point(r), s);
  check();
  std::vector<int> bits(m, 0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t s = 0; s < m; ++s)
      bits[s] = std::max(bits[s], int(std::bit_width(std::uint64_t(coords[r * m + s]))));
  std::vector<Keyed> keyed(n);
  for (std::size_t r = 0; r < n; ++r) keyed[r].second = std::uint32_t(r);
  for (const auto& [first, last] : cell_key_ranges(bits)) {
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
    for (std::size_t t = 0; t < n; ++t)
      keyed[t].first = cell_key(coords.data() + keyed[t].second * m, first, last, bits.data());
    check();
    sort_by_key(keyed);
    check();
  }
  out.point_order.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    out.point_order[t] = keyed[t].second;
    // data() + offset, not &coords[...]: with no indexed dimension the vector is empty.
    const std::int64_t* c = coords.data() + keyed[t].second * m;
    if (t == 0 || !std::equal(c, c + m, coords.data() + keyed[t - 1].second * m)) {
      if (t != 0) out.cell_end.push_back(std::uint32_t(t));
      out.cell_coords.insert(out.cell_coords.end(), c, c + m);
      out.cell_begin.push_back(std::uint32_t(t));
    }
  }
  if (n != 0) out.cell_end.push_back(std::uint32_t(n));
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
  grid_.indexed_dims.resize(m);
  grid_.origin.resize(m);

  std::string dims;
  for (int k : grid_.indexed_dims) dims += (dims.empty() ? "" : ",") + std::to_string(k);
  choice_ = "indexed " + std::to_string(m) + " of " + std::to_string(d) + " dimensions (" +
            (dims.empty() ? "none: one cell" : dims) + "), cell width " + std::to_string(width) + "; " +
            choice.reason;

  sort_into_cells(points, grid_, threads, grid_, control);
  columns_.resize(n * d);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = 0; k < d; ++k) columns_[k * n + t] = points.point(grid_.point_order[t])[k];
  if (control) control->throw_if_cancelled();
  occupied_.assign(m, {});
  for (std::size_t c = 0; c < grid_.cell_coords.size(); ++c) occupied_[c % m].push_back(grid_.cell_coords[c]);
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
  sort_into_cells(rows, grid_, threads_, grouped, nullptr);
  return grouped;
}

bool EpsilonGrid::occupied(std::size_t s, std::int64_t c) const {
  return std::binary_search(occupied_[s].begin(), occupied_[s].end(), c);
}

std::pair<std::uint32_t, std::uint32_t> EpsilonGrid::row(const std::int64_t* c) const {
  const int m = int(indexed());
  std::uint32_t first = 0, last = 0;
  cell_run(grid_.cell_coords.data(), std::uint32_t(grid_.cell_count()), m, c, m ? c[0] - 1 : 0, m ? c[0] + 1 : 0,
           first, last);
  if (first == last) return {0, 0};
  return {grid_.cell_begin[first], grid_.cell_end[last - 1]};
}

std::uint64_t cell_bytes(const GridStructure& cells) {
  return cells.cell_coords.size() * sizeof(std::int64_t) + cells.cell_count() * 2 * sizeof(std::uint32_t) +
         cells.point_order.size() * sizeof(std::uint32_t);
}

std::uint64_t EpsilonGrid::memory_bytes() const {
  std::uint64_t bytes = cell_bytes(grid_) + columns_.size() * sizeof(float);
  for (const auto& values : occupied_) bytes += values.size() * sizeof(std::int64_t);
  return bytes;
}

}  // namespace simjoin
