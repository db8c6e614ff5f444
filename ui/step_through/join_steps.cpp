#include "ui/step_through/join_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/frame/far_points.hpp"
#include "core/run/run_engine.hpp"
#include "ui/step_through/replay.hpp"
#include "ui/views/picking.hpp"

namespace simjoin::ui {

namespace {
// An engine that runs the replay it is given; the step-through's own counters stand for its result.
class ReplayEngine final : public Engine {
 public:
  using Replay = std::function<void(const JoinInputs&, const JoinParams&)>;
  explicit ReplayEngine(const Replay& replay) : replay_(replay) {}
  std::string name() const override { return "step-through"; }
  std::string description() const override { return "replays a join step by step"; }
  Capabilities capabilities() const override { return {}; }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink&, RunControl&) override {
    replay_(inputs, params);
    return {};
  }

 private:
  const Replay& replay_;
};
}  // namespace

void replay_in_frame(const PointSet& points, double eps,
                     const std::function<void(const JoinInputs&, const JoinParams&)>& replay) {
  ReplayEngine engine(replay);
  JoinParams params;
  params.eps = eps;
  params.threads = 1;
  CountSink sink;
  RunControl control;
  run_engine(engine, {&points, nullptr}, params, sink, control);
}

namespace {
// The `m` rows nearest to row `centre` (float64, ties by row), in file order: a region of the data.
// Only the points within the radius that holds twice m's share of an evenly spaced subset are
// ranked (a pass of distances over the file, no sort of it); all of them where that misses some.
std::vector<std::uint32_t> nearest_rows(const PointSet& points, std::uint32_t centre, std::size_t m) {
  const std::size_t n = points.size(), step = std::max<std::size_t>(1, n / 20000);
  const auto d2 = [&](std::size_t i) { return squared_distance(points.point(centre), points.point(i), points.dims()); };
  std::vector<double> subset;
  for (std::size_t i = 0; i < n; i += step) subset.push_back(d2(i));
  const std::size_t rank = std::min(subset.size() - 1, 2 * m / step + 1);
  std::nth_element(subset.begin(), subset.begin() + std::ptrdiff_t(rank), subset.end());
  std::vector<std::pair<double, std::uint32_t>> near;
  for (const double radius2 : {subset[rank], std::numeric_limits<double>::infinity()}) {
    near.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (const double d = d2(i); d <= radius2) near.emplace_back(d, std::uint32_t(i));
    if (near.size() >= m) break;
  }
  std::nth_element(near.begin(), near.begin() + std::ptrdiff_t(m - 1), near.end());
  std::vector<std::uint32_t> rows(m);
  for (std::size_t i = 0; i < m; ++i) rows[i] = near[i].second;
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The eps at which the region's points have, on average, `neighbours` neighbours each: the distance
// of the pair of that rank among all the region's pairs (eps itself where none are wanted).
double eps_for_neighbours(const PointSet& region, double neighbours, double eps) {
  const std::size_t m = region.size();
  const auto wanted = std::size_t(std::llround(std::min(neighbours, double(m - 1)) * double(m) / 2));
  if (wanted == 0 || m < 2) return eps;
  std::vector<double> d2;
  d2.reserve(m * (m - 1) / 2);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j)
      d2.push_back(squared_distance(region.point(i), region.point(j), region.dims()));
  std::nth_element(d2.begin(), d2.begin() + std::ptrdiff_t(wanted - 1), d2.end());
  const double scaled = std::sqrt(d2[wanted - 1]);
  return scaled > 0 ? scaled : eps;
}

// The rows stepped through where the file has more than `max_points`: every spread-th of the points
// nearest to a point where they are dense (where a join has most to do), with eps scaled so that a
// point of the region has as many neighbours as a point of the file has at the file's eps.
std::vector<std::uint32_t> region_rows(const PointSet& points, double& eps, std::size_t spread, std::size_t max_points,
                                       std::vector<std::string>& notes) {
  const DensityProbe probe = probe_density(points, eps);
  spread = std::max<std::size_t>(1, std::min(spread, points.size() / max_points));
  const std::vector<std::uint32_t> near = nearest_rows(points, probe.densest, spread * max_points);
  std::vector<std::uint32_t> rows(max_points);
  for (std::size_t i = 0; i < max_points; ++i) rows[i] = near[i * near.size() / max_points];
  PointSet region = PointSet::uninitialized(rows.size(), points.dims());
  for (std::size_t i = 0; i < rows.size(); ++i) std::copy_n(points.point(rows[i]), points.dims(), region.point(i));
  const double file_eps = eps;
  eps = eps_for_neighbours(region, probe.mean_neighbours, eps);
  char text[320];
  const std::string which = spread > 1 ? "Every " + std::to_string(spread) + "th of the " : std::string("The ");
  std::snprintf(text, sizeof text,
                "%s%zu points nearest to point %u, where the file is densest; eps %g scaled to %g so that a point "
                "has about %.3g neighbours, as in the whole file",
                which.c_str(), near.size(), unsigned(probe.densest), file_eps, eps, probe.mean_neighbours);
  notes.push_back(text);
  return rows;
}
}  // namespace

StepThrough sample_for_steps(const PointSet& points, double eps, std::size_t spread, std::size_t max_points) {
  StepThrough run;
  run.total_points = points.size();
  const std::size_t m = std::min(points.size(), max_points);
  std::vector<std::uint32_t> rows(m);
  for (std::size_t i = 0; i < m; ++i) rows[i] = std::uint32_t(i);
  if (m < points.size()) rows = region_rows(points, eps, spread, m, run.notes);
  run.eps = eps;
  PointSet sample = PointSet::uninitialized(m, points.dims());
  for (std::size_t i = 0; i < m; ++i) std::copy_n(points.point(rows[i]), points.dims(), sample.point(i));
  sample.column_names = points.column_names;
  const FarPoints far = find_far_points({&sample, nullptr}, eps, 1);
  run.far_left_out = far.a.size();
  if (far.empty()) {
    run.points = std::move(sample);
    run.rows = std::move(rows);
    return run;
  }
  std::vector<std::uint32_t> kept;
  run.points = without_rows(sample, far.a, kept);
  for (std::uint32_t r : kept) run.rows.push_back(rows[r]);
  return run;
}

}  // namespace simjoin::ui
