#include "cuda/detail/grid_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace simjoin::gpu {

Bounds bulk_bounds(const PointSet32& points) {
  constexpr std::size_t kSamples = 4096;
  const std::size_t n = points.size(), count = std::min(kSamples, n);
  Bounds bulk{std::vector<float>(points.dims()), std::vector<float>(points.dims())};
  if (count == 0) return bulk;
  std::vector<float> values(count);
  for (std::size_t j = 0; j < points.dims(); ++j) {
    for (std::size_t i = 0; i < count; ++i) values[i] = points.point((2 * i + 1) * n / (2 * count))[j];
    const auto at = [&](std::size_t rank) {
      std::nth_element(values.begin(), values.begin() + rank, values.end());
      return values[rank];
    };
    bulk.low[j] = at(count / 200);
    bulk.high[j] = at(count - 1 - count / 200);
  }
  return bulk;
}

GridLayout choose_grid_layout(const Bounds& bounds, const Bounds& bulk, std::size_t indexed_points,
                              double search_radius) {
  GridLayout layout;
  const std::size_t d = bounds.low.size();
  double max_extent = 0;
  for (std::size_t j = 0; j < d; ++j) max_extent = std::max(max_extent, double(bounds.high[j]) - bounds.low[j]);
  const double w = grid_cell_width(search_radius, max_extent);
  layout.cell_width = w;

  // One cell of margin below the minimum and above the maximum, so every neighbour exists; the cost
  // counts the cells of the bulk only.
  const auto cells_over = [&](const Bounds& range, std::size_t j) {
    return std::uint64_t(std::floor((double(range.high[j]) - range.low[j]) / w)) + 3;
  };
  std::vector<std::uint64_t> cells(d), dense(d);
  for (std::size_t j = 0; j < d; ++j) cells[j] = cells_over(bounds, j), dense[j] = cells_over(bulk, j);
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return dense[x] > dense[y]; });

  // Cost per query of indexing the first k dimensions of `order` (in distance-test units).
  const double n = double(std::max<std::size_t>(indexed_points, 1));
  const double test_cost = 1 + double(d) / 8;
  double best_cost = n * test_cost;  // k = 0: every point is a candidate
  std::size_t best_k = 0;
  double product = 1, rows = 1;
  for (std::size_t k = 1; k <= std::min<std::size_t>(d, kMaxIndexedDims); ++k) {
    const std::uint64_t c = dense[order[k - 1]];
    if (c <= 3) break;  // extent below one cell: the dimension filters nothing
    product *= double(c);
    if (k > 1) rows *= 3;
    const double lookup = 2 * std::log2(std::max(2.0, std::min(n, product)));
    const double cost = rows * lookup + rows * 3 * (n / product) * test_cost;
    if (cost < best_cost) {
      best_cost = cost;
      best_k = k;
    }
  }

  for (std::size_t i = 0; i < best_k; ++i) {
    const int j = order[i];
    layout.dims.push_back(j);
    layout.origin.push_back(double(bounds.low[j]) - w);
    layout.cells.push_back(cells[j]);
  }
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
