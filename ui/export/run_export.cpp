#include "ui/export/run_export.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

#include "core/base/error.hpp"
#include "core/io/pair_writers.hpp"
#include "core/io/point_labels.hpp"
#include "core/report/stats_document.hpp"
#include "core/vtkio/vtk_points.hpp"
#include "ui/run/partition_sizes.hpp"
#include "ui/run/run_execution.hpp"

namespace simjoin::ui {

namespace {
constexpr std::size_t kChunk = 1 << 20;

std::uint64_t max_id(const RunRecord& run) {
  return std::max(run.request.a->size(), run.request.b ? run.request.b->size() : std::size_t{0});
}

void require_points(const RunRecord& run) {
  if (!run.request.a) fail(ErrorKind::Usage, "the run has no input points");
}

// The run's pairs, into `sink`: the kept ones in chunks with progress, else by running again.
void replay_pairs(const EngineRegistry& registry, const RunRecord& run, PairSink& sink, RunControl& control) {
  if (!run.pairs) {
    run_into(registry, run.request, sink, control);
    return;
  }
  const std::vector<Pair>& pairs = *run.pairs;
  for (std::size_t begin = 0; begin < pairs.size(); begin += kChunk) {
    control.throw_if_cancelled();
    const std::size_t end = std::min(pairs.size(), begin + kChunk);
    sink.add(std::span(pairs).subspan(begin, end - begin));
    control.report(double(end) / double(pairs.size()));
  }
  sink.finish();
  control.report(1.0);
}
}  // namespace

void export_pairs(const EngineRegistry& registry, const RunRecord& run, const std::string& path, RunControl& control) {
  require_points(run);
  control.set_phase("writing pairs");
  PairFileSink sink(path, pair_format_for_path(path), max_id(run));
  replay_pairs(registry, run, sink, control);
}

void export_neighbors_csr(const EngineRegistry& registry, const RunRecord& run, const std::string& prefix,
                          RunControl& control) {
  require_points(run);
  const std::size_t n = run.request.a->size();
  const bool self_join = run.request.b == nullptr;
  if (run.pairs) {
    write_neighbors_csr(prefix, *run.pairs, n, self_join, &control);
  } else {
    control.set_phase("joining again for the neighbour lists");
    PairListSink sink;
    run_into(registry, run.request, sink, control);
    write_neighbors_csr(
        prefix, [&sink](const auto& visit) { sink.visit_blocks(visit); }, n, self_join, &control);
  }
  control.report(1.0);
}

void export_stats_json(const RunRecord& run, const std::string& path) {
  nlohmann::json json = stats_document(run.result.stats, run.request.a ? run.request.a->source : std::string(),
                                       run.request.b ? run.request.b->source : std::string());
  json["pairs_kept"] = run.pairs.has_value();
  if (const auto& parts = run.result.partitions) {
    json["partition_sizes"] = partition_sizes(*parts);
    json["kmeans_iterations"] = parts->iterations;
  }
  if (const auto& grid = run.result.grid) {
    json["grid"] = {{"cell_width", grid->cell_width},
                    {"indexed_dims", grid->indexed_dims},
                    {"non_empty_cells", grid->cell_count()},
                    {"unicomp", grid->unicomp}};
  }
  write_stats_json(path, json);
}

void export_labeled_vtp(const EngineRegistry& registry, const RunRecord& run, const std::string& path,
                        RunControl& control) {
  require_points(run);
  const PointSet& a = *run.request.a;
  control.set_phase("counting neighbours");
  NeighborCountSink neighbors(a.size(), run.request.b == nullptr);
  replay_pairs(registry, run, neighbors, control);
  control.set_phase("writing points");
  write_labeled_vtp(path, a, point_labels(a.size(), run.result, neighbors));
}

}  // namespace simjoin::ui
