// simjoin join: one join, its pairs to files and its statistics.
#include <cstdio>
#include <optional>

#include "app/cli/commands.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/load_input.hpp"
#include "app/cli/run_summary.hpp"
#include "app/cli/terminal_progress.hpp"
#include "core/error.hpp"
#include "core/io/pair_writers.hpp"
#include "core/io/point_labels.hpp"
#include "core/io/scratch_pairs.hpp"
#include "core/stats_document.hpp"
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
  return {command, [options, &registry] {
    if (options->count_only && (!options->output.empty() || !options->neighbors.empty() || !options->labels_vtp.empty()))
      fail(ErrorKind::Usage, "--count-only cannot be combined with --output, --neighbors or --labels-vtp");
    const PointSet a = load_input(options->input);
    std::optional<PointSet> b;
    if (!options->input_b.empty()) b = load_input(options->input_b);
    TerminalRun run;
    Engine& engine = registry.get(options->engine);
    const JoinSources inputs{&a, b ? &*b : nullptr};

    // No sink holds the whole pair list for its own sake: pairs stream to the output file, to scratch
    // pairs for the neighbour lists (in memory while they fit a quarter of it, else partly in a scratch
    // file removed however the command ends), and past a bounded sink that keeps the first ones to
    // show. Every output is written under a temporary name and renamed once complete.
    std::vector<PairSink*> sinks;
    std::optional<PairFileSink> file_sink;
    std::optional<ScratchPairs> neighbor_pairs;
    CountSink count_sink;
    FirstPairsSink first_pairs(options->show);
    std::optional<NeighborCountSink> neighbor_counts;
    const std::uint64_t max_id = std::max(a.size(), b ? b->size() : 0);
    if (!options->labels_vtp.empty()) {
      neighbor_counts.emplace(a.size(), inputs.self_join());
      sinks.push_back(&*neighbor_counts);
    }
    if (!options->output.empty()) {
      file_sink.emplace(options->output, pair_format_for_path(options->output), max_id);
      sinks.push_back(&*file_sink);
    }
    if (!options->neighbors.empty()) {
      neighbor_pairs.emplace(options->neighbors + ".pairs", max_id);
      sinks.push_back(&*neighbor_pairs);
    }
    if (options->show > 0) sinks.push_back(&first_pairs);
    TeeSink tee(sinks);
    PairSink& sink = options->count_only ? static_cast<PairSink&>(count_sink)
                     : sinks.size() == 1 ? *sinks.front() : tee;

    RunResult result = run_engine(engine, inputs, to_join_params(options->engine_options), sink, run.control());
    print_run_summary(result.stats);
    if (!options->count_only) print_first_pairs(first_pairs.sorted_pairs(), result.stats.pairs, options->show);
    if (!options->neighbors.empty()) {
      write_neighbors_csr(options->neighbors, neighbor_pairs->blocks(), a.size(),
                          inputs.self_join(), &run.control());
      std::printf("wrote %s.offsets.npy and %s.ids.npy\n", options->neighbors.c_str(), options->neighbors.c_str());
    }
    if (neighbor_counts) {
      run.control().throw_if_cancelled();
      write_labeled_vtp(options->labels_vtp, a, point_labels(a.size(), result, *neighbor_counts));
      std::printf("wrote %s\n", options->labels_vtp.c_str());
    }
    if (!options->output.empty()) std::printf("wrote %s\n", options->output.c_str());
    if (!options->stats.empty()) {
      run.control().throw_if_cancelled();
      write_stats_json(options->stats, stats_document(result.stats, options->input, options->input_b));
      std::printf("wrote %s\n", options->stats.c_str());
    }
    return 0;
  }};
}

}  // namespace simjoin::cli
