#include "ui/step_through/join_steps.hpp"

#include <algorithm>

#include "core/frame/far_points.hpp"
#include "core/run/run_engine.hpp"
#include "ui/step_through/replay.hpp"

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

StepThrough sample_for_steps(const PointSet& points, double eps, std::size_t max_points) {
  StepThrough run;
  run.eps = eps;
  run.total_points = points.size();
  const std::size_t m = std::min(points.size(), max_points);
  PointSet sample = PointSet::uninitialized(m, points.dims());
  std::vector<std::uint32_t> rows(m);
  for (std::size_t i = 0; i < m; ++i) {
    rows[i] = std::uint32_t(i * points.size() / m);
    std::copy_n(points.point(rows[i]), points.dims(), sample.point(i));
  }
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
