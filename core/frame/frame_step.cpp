#include "core/frame/frame_step.hpp"

#include <chrono>
#include <optional>

#include "core/frame/far_points.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin {

namespace {
// The engine's inputs in a frame, with the float32 sets they point to (hence neither copied nor moved).
class FramedInputs {
 public:
  FramedInputs(const JoinFrame& frame, const JoinSources& rows, const RunControl& control)
      : a_(frame.to_frame(*rows.a, &control)) {
    if (rows.b) b_ = frame.to_frame(*rows.b, &control);
    inputs_.a = &a_;
    inputs_.b = b_ ? &*b_ : nullptr;
    inputs_.exact_a = rows.a;
    inputs_.exact_b = rows.b;
    inputs_.band = frame.band();
    inputs_.search_radius = frame.search_radius();
  }
  FramedInputs(const FramedInputs&) = delete;
  FramedInputs& operator=(const FramedInputs&) = delete;
  const JoinInputs& inputs() const { return inputs_; }

 private:
  PointSet32 a_;
  std::optional<PointSet32> b_;
  JoinInputs inputs_;
};

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
}  // namespace

RunResult run_in_frame(Engine& engine, const JoinSources& sources, const JoinParams& params, PairSink& sink,
                       RunControl& control) {
  const auto start = std::chrono::steady_clock::now();
  control.set_phase("frame");
  // Far points are joined apart, so that they do not widen the frame's rounding bound for all.
  const BulkSources bulk(sources, JoinFrame(*sources.a, sources.b, params.eps), params.threads,
                         engine.capabilities().spread_matters, &control);
  const JoinFrame& frame = bulk.frame();
  const FramedInputs framed(frame, bulk.rows(), control);
  const double frame_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::optional<RenumberingSink> renumbered;
  if (bulk.has_far_points()) renumbered.emplace(sink, bulk.rows_of_a(), bulk.rows_of_queries());
  RunResult result = engine.run(framed.inputs(), params, renumbered ? *renumbered : sink, control);
  drop_unasked_structures(result, params);
  result.stats.phases.insert(result.stats.phases.begin(), {"frame", frame_seconds});
  to_file_coordinates(result, frame);
  const std::string warning = frame.precision_warning(sources.a->source);
  if (!warning.empty()) result.stats.notes.push_back(warning);
  if (renumbered) renumbered->finish();
  bulk.join_far_points(result, sink, control);
  return result;
}

}  // namespace simjoin
