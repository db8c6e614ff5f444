#include "ui/views/picking.hpp"

#include <algorithm>

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

double squared_distance(const double* a, const double* b, std::size_t dims) {
  double sum = 0;
  for (std::size_t k = 0; k < dims; ++k) sum += (a[k] - b[k]) * (a[k] - b[k]);
  return sum;
}

DensityProbe probe_density(const PointSet& points, double eps) {
  constexpr std::size_t kCandidates = 256, kReference = 20000;
  const std::size_t n = points.size();
  const std::size_t candidate_step = std::max<std::size_t>(1, n / kCandidates);
  const std::size_t reference_step = std::max<std::size_t>(1, n / kReference);
  const ExactBand oracle = oracle_band(eps);
  DensityProbe probe;
  std::size_t best = 0, total = 0, candidates = 0, references = (n + reference_step - 1) / reference_step;
  for (std::size_t c = 0; c < n; c += candidate_step, ++candidates) {
    std::size_t count = 0;
    for (std::size_t q = 0; q < n; q += reference_step)
      count += q != c && oracle.oracle_within(points.point(c), points.point(q), points.dims());
    total += count;
    if (count > best) {
      best = count;
      probe.densest = static_cast<std::uint32_t>(c);
    }
  }
  // Each reference stands for reference_step points of the file.
  if (candidates && references)
    probe.mean_neighbours = double(total) / double(candidates) * double(n - 1) / double(references);
  return probe;
}

}  // namespace simjoin::ui
