#include "core/engines/epsilon_grid.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

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
}  // namespace

EpsilonGrid::EpsilonGrid(const PointSet& points, double eps, std::vector<std::string>& notes) {
  const std::size_t n = points.size(), d = points.dims();
  const Bounds bounds = compute_bounds(points);
  std::vector<double> extent(d, 0.0);
  if (n > 0)  // bounds are empty for no points
    for (std::size_t k = 0; k < d; ++k) extent[k] = double(bounds.high[k]) - double(bounds.low[k]);
  const double width = cell_width(eps, *std::max_element(extent.begin(), extent.end()));
  grid_.cell_width = width;

  // Dimensions by extent, widest first; one spanning under a cell width cannot prune. Fewer are
  // indexed when 3^m neighbour cells would outnumber the points or the linear ids would overflow.
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return extent[x] > extent[y]; });
  std::size_t max_indexed = EpsilonGrid::kMaxIndexed;
  while (max_indexed > 1 && std::pow(3.0, double(max_indexed)) > double(n)) --max_indexed;
  std::uint64_t total_cells = 1;
  for (int k : order) {
    if (grid_.indexed_dims.size() == max_indexed || extent[k] < width) break;
    const std::uint64_t cells = std::uint64_t(std::floor(extent[k] / width)) + 3;
    std::uint64_t product;
    if (__builtin_mul_overflow(total_cells, cells, &product)) {
      notes.push_back("stopped indexing dimensions: 64-bit cell ids would overflow");
      break;
    }
    total_cells = product;
    grid_.indexed_dims.push_back(k);
    grid_.cells_per_dim.push_back(cells);
    grid_.origin.push_back(double(bounds.low[k]) - width);
  }
  const std::size_t m = grid_.indexed_dims.size();
  strides_.assign(m, 1);
  for (std::size_t s = 1; s < m; ++s) strides_[s] = strides_[s - 1] * grid_.cells_per_dim[s - 1];

  std::string dims;
  for (int k : grid_.indexed_dims) dims += (dims.empty() ? "" : ",") + std::to_string(k);
  notes.push_back("indexed " + std::to_string(m) + " of " + std::to_string(d) +
                  " dimensions (" + (dims.empty() ? "none: one cell" : dims) + "), cell width " +
                  std::to_string(width));

  // Linear id per point, then point ids sorted by cell (A), distinct ids (B) and ranges (G).
  std::vector<std::uint64_t> ids(n);
  occupied_.assign(m, {});
  std::vector<std::int64_t> coords(m);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t s = 0; s < m; ++s) coords[s] = coordinate(points.point(i), s);
    ids[i] = linear_id(coords.data());
  }
  grid_.point_order.resize(n);
  std::iota(grid_.point_order.begin(), grid_.point_order.end(), 0u);
  std::stable_sort(grid_.point_order.begin(), grid_.point_order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return ids[x] < ids[y]; });
  for (std::size_t r = 0; r < n; ++r) {
    const std::uint64_t id = ids[grid_.point_order[r]];
    if (r == 0 || id != grid_.cell_ids.back()) {
      if (r != 0) grid_.cell_end.push_back(std::uint32_t(r));
      grid_.cell_ids.push_back(id);
      grid_.cell_begin.push_back(std::uint32_t(r));
    }
  }
  if (n > 0) grid_.cell_end.push_back(std::uint32_t(n));

  for (std::uint64_t id : grid_.cell_ids)
    for (std::size_t s = 0; s < m; ++s)
      occupied_[s].push_back(std::int64_t(id / strides_[s] % grid_.cells_per_dim[s]));
  for (auto& values : occupied_) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }
}

std::int64_t EpsilonGrid::coordinate(const float* p, std::size_t s) const {
  const double u = (double(p[grid_.indexed_dims[s]]) - grid_.origin[s]) / grid_.cell_width;
  const double cells = double(grid_.cells_per_dim[s]);
  return std::int64_t(std::floor(std::clamp(u, -2.0, cells + 1)));
}

bool EpsilonGrid::occupied(std::size_t s, std::int64_t c) const {
  if (c < 0 || std::uint64_t(c) >= grid_.cells_per_dim[s]) return false;
  return std::binary_search(occupied_[s].begin(), occupied_[s].end(), c);
}

std::uint64_t EpsilonGrid::linear_id(const std::int64_t* coords) const {
  std::uint64_t id = 0;
  for (std::size_t s = 0; s < strides_.size(); ++s) id += std::uint64_t(coords[s]) * strides_[s];
  return id;
}

std::int64_t EpsilonGrid::find(std::uint64_t id) const {
  const auto it = std::lower_bound(grid_.cell_ids.begin(), grid_.cell_ids.end(), id);
  if (it == grid_.cell_ids.end() || *it != id) return -1;
  return it - grid_.cell_ids.begin();
}

std::uint64_t EpsilonGrid::memory_bytes() const {
  std::uint64_t bytes = grid_.cell_ids.size() * (sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t)) +
                        grid_.point_order.size() * sizeof(std::uint32_t);
  for (const auto& values : occupied_) bytes += values.size() * sizeof(std::int64_t);
  return bytes;
}

}  // namespace simjoin
