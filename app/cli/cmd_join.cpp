// simjoin join: one join, its pairs to files and its statistics.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/load_input.hpp"
#include "app/cli/run_summary.hpp"
#include "app/cli/terminal_progress.hpp"
#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/pair_writers.hpp"
#include "core/io/point_labels.hpp"
#include "core/io/scratch_pairs.hpp"
#include "core/report/stats_document.hpp"
#include "core/run/run_engine.hpp"
#include "core/vtkio/vtk_points.hpp"

namespace simjoin::cli {

namespace {
struct JoinOptions {
  std::string input, input_b, engine = "auto", output, neighbors, stats, labels_vtp;
  bool count_only = false;
  std::size_t show = 10;
  EngineOptions engine_options;
};

void print_first_pairs(const std::vector<Pair>& pairs, std::uint64_t total, std::size_t show) {
  if (pairs.empty() || show == 0) return;
  std::printf("first pairs:");
  for (std::size_t i = 0; i < std::min(show, pairs.size()); ++i) std::printf(" (%u, %u)", pairs[i].i, pairs[i].j);
  std::printf(total > show ? " ...\n" : "\n");
}

// Where the pairs go. No sink holds the whole pair list for its own sake: pairs stream to the output
// file, to scratch pairs for the neighbour lists (in memory while they fit a quarter of it, else partly
// in a scratch file removed however the command ends), and past a bounded sink that keeps the first
// ones to show. Every output is written under a temporary name and renamed once complete.
struct JoinSinks {
  JoinSinks(const JoinOptions& options, const JoinSources& inputs)
      : first_pairs(options.show), count_only(options.count_only) {
    const std::uint64_t max_id = std::max(inputs.a->size(), inputs.b ? inputs.b->size() : 0);
    if (!options.labels_vtp.empty()) {
      neighbor_counts.emplace(inputs.a->size(), inputs.self_join());
      targets.push_back(&*neighbor_counts);
    }
    if (!options.output.empty()) {
      file_sink.emplace(options.output, pair_format_for_path(options.output), max_id);
      targets.push_back(&*file_sink);
    }
    if (!options.neighbors.empty()) {
      neighbor_pairs.emplace(options.neighbors + ".pairs", max_id);
      targets.push_back(&*neighbor_pairs);
    }
    if (options.show > 0) targets.push_back(&first_pairs);
    tee.emplace(targets);
  }

  // The one sink the run writes to.
  PairSink& sink() {
    if (count_only) return count_sink;
    return targets.size() == 1 ? *targets.front() : *tee;
  }

  std::vector<PairSink*> targets;
  std::optional<PairFileSink> file_sink;
  std::optional<ScratchPairs> neighbor_pairs;
  CountSink count_sink;
  FirstPairsSink first_pairs;
  std::optional<NeighborCountSink> neighbor_counts;
  std::optional<TeeSink> tee;
  bool count_only = false;
};

// The neighbour lists, the labelled points and the statistics, as asked.
void write_outputs(const JoinOptions& options, const JoinSources& inputs, const RunResult& result, JoinSinks& sinks,
                   TerminalRun& run) {
  if (!options.neighbors.empty()) {
    write_neighbors_csr(options.neighbors, sinks.neighbor_pairs->blocks(), inputs.a->size(), inputs.self_join(),
                        &run.control());
    std::printf("wrote %s.offsets.npy and %s.ids.npy\n", options.neighbors.c_str(), options.neighbors.c_str());
  }
  if (sinks.neighbor_counts) {
    run.control().throw_if_cancelled();
    write_labeled_vtp(options.labels_vtp, *inputs.a, point_labels(inputs.a->size(), result, *sinks.neighbor_counts));
    std::printf("wrote %s\n", options.labels_vtp.c_str());
  }
  if (!options.output.empty()) std::printf("wrote %s\n", options.output.c_str());
  if (!options.stats.empty()) {
    run.control().throw_if_cancelled();
    write_stats_json(options.stats, stats_document(result.stats, options.input, options.input_b));
    std::printf("wrote %s\n", options.stats.c_str());
  }
}

// Every output path, checked before the inputs are read and the join runs rather than after.
void check_output_paths(const JoinOptions& options) {
  std::vector<std::string> paths = {options.output, options.stats, options.labels_vtp};
  if (!options.neighbors.empty())
    for (const char* suffix : {".offsets.npy", ".ids.npy", ".pairs"}) paths.push_back(options.neighbors + suffix);
  for (const std::string& path : paths)
    if (!path.empty()) check_writable(path);
}

int run_join(const JoinOptions& options, const EngineRegistry& registry) {
  if (options.count_only && (!options.output.empty() || !options.neighbors.empty() || !options.labels_vtp.empty()))
    fail(ErrorKind::Usage, "--count-only cannot be combined with --output, --neighbors or --labels-vtp");
  if (!options.output.empty()) pair_format_for_path(options.output);  // a usage error before a file error
  check_output_paths(options);
  const PointSet a = load_input(options.input);
  std::optional<PointSet> b;
  if (!options.input_b.empty()) b = load_input(options.input_b);
  TerminalRun run;
  Engine& engine = registry.get(options.engine);
  const JoinSources inputs{&a, b ? &*b : nullptr};
  JoinSinks sinks(options, inputs);
  JoinParams params = to_join_params(options.engine_options);
  params.structures = !options.labels_vtp.empty();  // its partition and replicated arrays
  const RunResult result = run_engine(engine, inputs, params, sinks.sink(), run.control());
  print_run_summary(result.stats);
  if (!options.count_only) print_first_pairs(sinks.first_pairs.sorted_pairs(), result.stats.pairs, options.show);
  write_outputs(options, inputs, result, sinks, run);
  return 0;
}
}  // namespace

Command add_join_command(CLI::App& app, const EngineRegistry& registry) {
  auto* command = app.add_subcommand("join", "Find every pair within eps (self-join, or A-join-B with --input-b)");
  auto options = std::make_shared<JoinOptions>();
  command->add_option("--input", options->input, "Point file A")->required();
  command->add_option("--input-b", options->input_b, "Point file B: join A with B instead of A with itself");
  command->add_option("--engine", options->engine, "Engine (see `simjoin engines`)")->capture_default_str();
  add_engine_options(*command, options->engine_options);
  command->add_flag("--count-only", options->count_only, "Count pairs without materialising them");
  command->add_option("--output", options->output, "Pair list file: .csv, .npy or .bin (streamed to disk)");
  command->add_option("--neighbors", options->neighbors,
                      "Write per-point neighbour lists as PREFIX.offsets.npy and PREFIX.ids.npy (CSR)");
  command->add_option("--stats", options->stats, "Run statistics as JSON");
  command->add_option("--labels-vtp", options->labels_vtp,
                      "The points of A as VTK .vtp with arrays partition, replicated and neighbors");
  command->add_option("--show", options->show, "Print this many of the first pairs")->capture_default_str();
  return {command, [options, &registry] { return run_join(*options, registry); }};
}

}  // namespace simjoin::cli
