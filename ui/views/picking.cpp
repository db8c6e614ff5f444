#include "ui/views/picking.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin::ui {

std::optional<std::uint32_t> pick_nearest(const std::vector<float>& xy, const std::vector<std::uint32_t>& ids, double x,
                                          double y, double radius) {
  std::optional<std::uint32_t> best;
  double best_d2 = radius * radius;
  for (std::size_t v = 0; v < ids.size(); ++v) {
    const double dx = xy[2 * v] - x, dy = xy[2 * v + 1] - y;
    const double d2 = dx * dx + dy * dy;
    if (d2 < best_d2 || (d2 == best_d2 && best && ids[v] < *best)) {
      best_d2 = d2;
      best = ids[v];
    }
  }
  return best;
}

std::vector<std::uint32_t> neighbours_within(const PointSet& points, std::uint32_t i, double eps) {
  std::vector<std::uint32_t> found;
  const double* p = points.point(i);
  const ExactBand oracle = oracle_band(eps);
  for (std::size_t q = 0; q < points.size(); ++q)
    if (q != i && oracle.oracle_within(p, points.point(q), points.dims()))
      found.push_back(static_cast<std::uint32_t>(q));
  return found;
}

}  // namespace simjoin::ui
