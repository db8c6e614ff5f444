#include "cuda/grid_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace simjoin::gpu {

double grid_cell_width(double eps, double max_extent) {
  // eps is the frame's search radius; the margin covers the rounding of cell coordinates.
  double width = eps * (1 + 1e-3);
  const double coarsest = max_extent / double(1 << 30);
  if (width < coarsest) width = coarsest;
  if (width <= 0) width = 1;  // eps = 0 and all points equal: one cell
  return width;
}

GridLayout choose_grid_layout(const Bounds& bounds, std::size_t indexed_points, double eps) {
  GridLayout layout;
  const std::size_t d = bounds.low.size();
  double max_extent = 0;
  for (std::size_t j = 0; j < d; ++j) max_extent = std::max(max_extent, double(bounds.high[j]) - bounds.low[j]);
  const double w = grid_cell_width(eps, max_extent);
  layout.cell_width = w;

  // One cell of margin below the minimum and above the maximum, so every neighbour exists.
  std::vector<std::uint64_t> cells(d);
  for (std::size_t j = 0; j < d; ++j)
    cells[j] = std::uint64_t(std::floor((double(bounds.high[j]) - bounds.low[j]) / w)) + 3;
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return cells[x] > cells[y]; });

  // Cost per query of indexing the first k dimensions of `order` (in distance-test units).
  const double n = double(std::max<std::size_t>(indexed_points, 1));
  const double test_cost = 1 + double(d) / 8;
  double best_cost = n * test_cost;  // k = 0: every point is a candidate
  std::size_t best_k = 0;
  std::uint64_t product = 1;
  double rows = 1;
  for (std::size_t k = 1; k <= std::min<std::size_t>(d, kMaxIndexedDims); ++k) {
    const std::uint64_t c = cells[order[k - 1]];
    if (c <= 3) break;  // extent below one cell: the dimension filters nothing
    std::uint64_t next = 0;
    if (__builtin_mul_overflow(product, c, &next) || next > (std::uint64_t(1) << 62)) {
      layout.notes.push_back("indexing stops at " + std::to_string(k - 1) +
                             " dimensions: more would overflow 64-bit cell ids");
      break;
    }
    product = next;
    if (k > 1) rows *= 3;
    const double lookup = 2 * std::log2(std::max(2.0, std::min(n, double(product))));
    const double cost = rows * lookup + rows * 3 * (n / double(product)) * test_cost;
    if (cost < best_cost) {
      best_cost = cost;
      best_k = k;
    }
  }

  std::uint64_t stride = 1;
  for (std::size_t i = 0; i < best_k; ++i) {
    const int j = order[i];
    layout.dims.push_back(j);
    layout.origin.push_back(double(bounds.low[j]) - w);
    layout.cells.push_back(cells[j]);
    layout.strides.push_back(stride);
    stride *= cells[j];
  }
  layout.id_count = stride;
  std::ostringstream note;
  note << "grid indexes " << best_k << " of " << d << " dimensions";
  if (best_k < d && best_k > 0) {
    note << " (";
    for (std::size_t i = 0; i < best_k; ++i) note << (i ? "," : "") << layout.dims[i];
    note << ")";
  }
  note << ", cell width " << w;
  layout.notes.push_back(note.str());
  return layout;
}

}  // namespace simjoin::gpu
