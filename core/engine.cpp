#include "core/engine.hpp"

#include <chrono>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "core/far_points.hpp"
#include "core/join_frame.hpp"

namespace simjoin {

namespace {
void validate(const Engine& engine, const JoinSources& inputs, const JoinParams& params) {
  if (inputs.a == nullptr) fail(ErrorKind::Internal, "join without input points");
  if (!(params.eps >= 0) || !std::isfinite(params.eps))
    fail(ErrorKind::Usage, "eps must be a finite number >= 0 (got " + std::to_string(params.eps) + ")");
  if (params.k < 0) fail(ErrorKind::Usage, "k must be >= 0");
  const Capabilities caps = engine.capabilities();
  if (inputs.self_join() && !caps.self_join)
    fail(ErrorKind::Usage, engine.name() + " does not support self-joins");
  if (!inputs.self_join()) {
    if (!caps.ab_join) fail(ErrorKind::Usage, engine.name() + " does not support A-join-B");
    if (inputs.b->dims() != inputs.a->dims())
      fail(ErrorKind::Usage, "A has " + std::to_string(inputs.a->dims()) + " dimensions but B has " +
                                 std::to_string(inputs.b->dims()));
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
// The engine's structures are in frame coordinates; the views draw them over the file's values.
void to_file_coordinates(RunResult& result, const JoinFrame& frame) {
  if (result.partitions) {
    PartitionStructure& parts = *result.partitions;
    const std::size_t d = parts.k ? parts.centroids.size() / parts.k : 0;
    for (std::size_t c = 0; c < parts.centroids.size(); ++c)
      parts.centroids[c] = frame.to_file_coordinate(parts.centroids[c], c % d);
  }
  if (result.grid) {
    GridStructure& grid = *result.grid;
    for (std::size_t s = 0; s < grid.origin.size(); ++s)
      grid.origin[s] = frame.to_file_coordinate(grid.origin[s], std::size_t(grid.indexed_dims[s]));
    grid.cell_width = frame.to_file_length(grid.cell_width);
  }
}
// Joins the far points that run_engine set apart, and renumbers the engine's structures (built over
// the rows `kept` of A) to all of A's rows.
void join_far_points_into(RunResult& result, const JoinSources& sources, const FarPoints& far,
                          const std::vector<std::uint32_t>& kept, const JoinParams& params, PairSink& sink,
                          RunControl& control) {
  control.set_phase("far points");
  {
    PhaseTimer timer(result.stats, "far points");
    result.stats.compared_pairs += join_far_points(sources, far, params.eps, params.threads, sink, control);
  }
  renumber_structures(result, kept, *sources.a);
  result.stats.notes.push_back(std::to_string(far.size()) +
                               " far points (outliers) kept out of the float32 frame and joined in float64");
}
}  // namespace

RunResult run_engine(Engine& engine, const JoinSources& sources, const JoinParams& params,
                     PairSink& sink, RunControl& control) {
  validate(engine, sources, params);
  const auto start = std::chrono::steady_clock::now();
  JoinInputs inputs;
  inputs.exact_a = sources.a;
  inputs.exact_b = sources.b;
  JoinParams frame_params = params;
  RunResult result;
  if (engine.capabilities().precision == "float64") {
    result = engine.run(inputs, frame_params, sink, control);
  } else {
    control.set_phase("frame");
    // Far points are joined apart, so that they do not widen the frame's rounding bound for all.
    const FarPoints far = find_far_points(sources, params.eps, params.threads);
    std::optional<PointSet> bulk_a, bulk_b;
    std::vector<std::uint32_t> rows_a, rows_b;
    if (!far.empty()) {
      bulk_a = without_rows(*sources.a, far.a, rows_a);
      inputs.exact_a = &*bulk_a;
      if (sources.b) {
        bulk_b = without_rows(*sources.b, far.b, rows_b);
        inputs.exact_b = &*bulk_b;
      }
    }
    // Without far points the frame spans all points, whose bounds find_far_points measured already.
    const JoinFrame frame = far.empty() ? JoinFrame(far.all, params.eps)
                                        : JoinFrame(*inputs.exact_a, inputs.exact_b, params.eps);
    const PointSet32 a = frame.to_frame(*inputs.exact_a, &control);
    std::optional<PointSet32> b;
    if (inputs.exact_b) b = frame.to_frame(*inputs.exact_b, &control);
    const double frame_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    inputs.a = &a;
    inputs.b = b ? &*b : nullptr;
    inputs.band = frame.band();
    frame_params.eps = frame.search_eps();
    std::optional<RenumberingSink> renumbered;
    if (!far.empty()) renumbered.emplace(sink, rows_a, sources.b ? rows_b : rows_a);
    result = engine.run(inputs, frame_params, renumbered ? *renumbered : sink, control);
    result.stats.phases.insert(result.stats.phases.begin(), {"frame", frame_seconds});
    to_file_coordinates(result, frame);
    const std::string warning = frame.precision_warning(sources.a->source);
    if (!warning.empty()) result.stats.notes.push_back(warning);
    if (!far.empty()) {
      renumbered->finish();
      join_far_points_into(result, sources, far, rows_a, params, sink, control);
    }
  }
  control.set_phase("writing pairs");
  sink.finish();
  RunStats& stats = result.stats;
  stats.seconds_total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.engine = engine.name();
  stats.n = sources.a->size();
  stats.n_b = sources.self_join() ? 0 : sources.b->size();
  stats.d = sources.a->dims();
  stats.eps = params.eps;
  stats.pairs = sink.count();
  control.report(1.0);
  return result;
}

void EngineRegistry::add(std::unique_ptr<Engine> engine) { engines_.push_back(std::move(engine)); }

Engine* EngineRegistry::find(const std::string& name) const {
  for (const auto& engine : engines_)
    if (engine->name() == name) return engine.get();
  return nullptr;
}

Engine& EngineRegistry::get(const std::string& name) const {
  if (Engine* engine = find(name)) return *engine;
  std::string known;
  for (const auto& engine : engines_) known += (known.empty() ? "" : ", ") + engine->name();
  fail(ErrorKind::Usage, "unknown engine '" + name + "'; known engines: " + known);
}

std::vector<std::string> EngineRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& engine : engines_) result.push_back(engine->name());
  return result;
}

}  // namespace simjoin
