#include "ui/views/grid_search.hpp"

#include "core/base/error.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin::ui {

GridSearch search_from(const PlaneGrid& grid, const PointSet& points, std::uint32_t query, double eps, bool unicomp) {
  if (query >= grid.has_cell.size() || !grid.has_cell[query])
    fail(ErrorKind::Usage, "grid view: point " + std::to_string(query) + " has no cell");
  GridSearch search;
  search.home = grid.point_cell[query];
  search.searched.push_back(search.home);
  for (std::int64_t dy = -1; dy <= 1; ++dy)
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const CellXY to{search.home[0] + dx, search.home[1] + dy};
      (searches(search.home.data(), to.data(), 2, unicomp) ? search.searched : search.skipped).push_back(to);
    }
  const auto in = [](const std::vector<CellXY>& cells, const CellXY& c) {
    for (const CellXY& x : cells)
      if (x == c) return true;
    return false;
  };
  const ExactBand oracle = oracle_band(eps);
  for (std::uint32_t q = 0; q < points.size(); ++q) {
    if (q == query || !grid.has_cell[q]) continue;
    const CellXY& c = grid.point_cell[q];
    const bool own = c == search.home;
    const bool tested = own ? (!unicomp || q > query) : in(search.searched, c);
    if (!tested) {
      search.saved += own || in(search.skipped, c);
      continue;
    }
    search.candidates.push_back(q);
    if (oracle.oracle_within(points.point(query), points.point(q), points.dims())) search.found.push_back(q);
  }
  return search;
}

}  // namespace simjoin::ui
