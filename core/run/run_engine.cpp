#include "core/run/run_engine.hpp"

#include <chrono>

#include "core/base/error.hpp"
#include "core/frame/frame_step.hpp"
#include "core/join/eps_rule.hpp"

namespace simjoin {

namespace {
void validate(const Engine& engine, const JoinSources& inputs, const JoinParams& params) {
  if (inputs.a == nullptr) fail(ErrorKind::Internal, "join without input points");
  check_eps(params.eps);
  if (params.k < 0) fail(ErrorKind::Usage, "k must be >= 0");
  // Refused for every engine, so that a bad list never passes unnoticed through one that ignores it.
  for (const int device : params.devices)
    if (device < 0 || device > 1023)
      fail(ErrorKind::Usage,
           "devices must be GPU ordinals, integers from 0, e.g. 0,1 (got " + std::to_string(device) + ")");
  const Capabilities caps = engine.capabilities();
  if (inputs.self_join() && !caps.self_join) fail(ErrorKind::Usage, engine.name() + " does not support self-joins");
  if (!inputs.self_join()) {
    if (!caps.ab_join) fail(ErrorKind::Usage, engine.name() + " does not support A-join-B");
    if (inputs.b->dims() != inputs.a->dims())
      fail(ErrorKind::Usage,
           "A has " + std::to_string(inputs.a->dims()) + " dimensions but B has " + std::to_string(inputs.b->dims()));
  }
  if (inputs.a->dims() > caps.max_dims)
    fail(ErrorKind::Usage, engine.name() + " supports at most " + std::to_string(caps.max_dims) +
                               " dimensions; the input has " + std::to_string(inputs.a->dims()));
  const std::uint64_t max_points = 0xFFFFFFFFull;
  if (inputs.a->size() > max_points || (inputs.b && inputs.b->size() > max_points))
    fail(ErrorKind::Usage, "at most 4294967295 points per set are supported");
  const Availability availability = engine.availability();
  if (!availability.available)
    fail(ErrorKind::Unavailable, engine.name() + " is not available: " + availability.reason);
}
// Float64 engines compute on the file's values, and search the caller's eps itself.
RunResult run_on_file_values(Engine& engine, const JoinSources& sources, const JoinParams& params, PairSink& sink,
                             RunControl& control) {
  JoinInputs inputs;
  inputs.exact_a = sources.a;
  inputs.exact_b = sources.b;
  inputs.search_radius = params.eps;
  RunResult result = engine.run(inputs, params, sink, control);
  drop_unasked_structures(result, params);
  return result;
}

// The stats fields every run shares.
void fill_common_stats(RunStats& stats, const Engine& engine, const JoinSources& sources, const JoinParams& params,
                       const PairSink& sink, double seconds) {
  stats.seconds_total = seconds;
  stats.engine = engine.name();
  stats.n = sources.a->size();
  stats.n_b = sources.self_join() ? 0 : sources.b->size();
  stats.d = sources.a->dims();
  stats.eps = params.eps;
  stats.pairs = sink.count();
}
}  // namespace

RunResult run_engine(Engine& engine, const JoinSources& sources, const JoinParams& params, PairSink& sink,
                     RunControl& control) {
  validate(engine, sources, params);
  const auto start = std::chrono::steady_clock::now();
  RunResult result = engine.capabilities().precision == Precision::Float64
                         ? run_on_file_values(engine, sources, params, sink, control)
                         : run_in_frame(engine, sources, params, sink, control);
  control.set_phase("writing pairs");
  sink.finish();
  fill_common_stats(result.stats, engine, sources, params, sink,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  control.report(1.0);
  return result;
}

}  // namespace simjoin
