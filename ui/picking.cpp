#include "ui/picking.hpp"


namespace simjoin::ui {

std::optional<std::uint32_t> pick_nearest(const std::vector<float>& xy,
                                          const std::vector<std::uint32_t>& ids, double x, double y,
                                          double radius) {
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
  const float* p = points.point(i);
  const double eps2 = eps * eps;
  for (std::size_t q = 0; q < points.size(); ++q) {
    if (q == i) continue;
    double d2 = 0;
    for (std::size_t j = 0; j < points.dims(); ++j) {
      const double diff = static_cast<double>(p[j]) - points.point(q)[j];
      d2 += diff * diff;
    }
    if (d2 <= eps2) found.push_back(static_cast<std::uint32_t>(q));
  }
  return found;
}

}  // namespace simjoin::ui
