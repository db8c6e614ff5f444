#include "core/engines/detail/grid_join.hpp"

#include <algorithm>

namespace simjoin {

std::vector<GridTask> GridJoin::tasks(bool one_cell_each) const {
  const GridStructure& cells = query_cells();
  const std::size_t m = grid_.indexed();
  const auto same_run = [&](std::size_t x, std::size_t y) {
    return std::equal(cells.cell_coords.begin() + std::ptrdiff_t(x * m + 1),
                      cells.cell_coords.begin() + std::ptrdiff_t(x * m + m),
                      cells.cell_coords.begin() + std::ptrdiff_t(y * m + 1));
  };
  std::vector<GridTask> tasks;
  tasks.reserve(cells.cell_count() + cells.point_order.size() / kGridTaskQueries);
  for (std::size_t c = 0; c < cells.cell_count(); ++c) {
    const std::uint32_t begin = cells.cell_begin[c], end = cells.cell_end[c];
    // A small cell joins the previous task when that one holds small cells of the same run.
    if (!one_cell_each && m > 0 && !tasks.empty() && end - tasks.back().begin <= kGridTaskQueries &&
        tasks.back().end == begin && same_run(tasks.back().cell, c)) {
      ++tasks.back().cells;
      tasks.back().end = end;
      continue;
    }
    for (std::uint32_t from = begin; from < end; from += kGridTaskQueries)
      tasks.push_back({std::uint32_t(c), 1, from, std::min(from + kGridTaskQueries, end)});
  }
  return tasks;
}

GridJoin::GridJoin(const PointRows& points, const PointRows& queries, bool self_join, const JoinInputs& frame,
                   const JoinParams& params, const RunControl* control)
    : query_rows_(queries),
      self_(self_join),
      unicomp_(self_join && params.unicomp),
      reject_(frame.band.reject),
      d_(queries.dims()),
      grid_(points, queries, self_join, frame.search_radius, params.threads, control),
      grouped_(self_join ? GridStructure{} : grid_.group(queries)) {
  // Every offset in slots 1..m-1, as base-3 digits 0, 1, 2 for 0, -1, +1: code 0 is the own row.
  const std::size_t m = grid_.indexed();
  std::size_t count = 1;
  for (std::size_t s = 1; s < m; ++s) count *= 3;
  for (std::size_t code = 0; code < count; ++code) {
    Row row;
    std::size_t rest = code;
    for (std::size_t s = 1; s < m; ++s) {
      const std::size_t digit = rest % 3;
      rest /= 3;
      row.delta[s] = std::int8_t(digit == 0 ? 0 : digit == 1 ? -1 : 1);
      if (digit != 0) row.last = int(s);
    }
    rows_.push_back(row);
  }
}

}  // namespace simjoin
