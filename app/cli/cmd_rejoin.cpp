// simjoin rejoin: RE-JOIN on the GPU. A KMEANS-JOIN of the input, then each update file is added as a
// batch, joining only the pairs that involve its points; one line per batch.
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/load_input.hpp"
#include "app/cli/run_summary.hpp"
#include "app/cli/terminal_progress.hpp"
#include "core/base/error.hpp"
#include "core/io/pair_writers.hpp"
#include "cuda/gpu_engines.hpp"
#include "cuda/rejoin.hpp"

namespace simjoin::cli {

namespace {
struct RejoinOptions {
  std::string input, output;
  std::vector<std::string> updates;
  double eps = 0, threshold = 0;
  int k = 0, device = 0;
  std::uint64_t seed = 1;
};

void print_batch(const std::string& name, const RejoinBatch& batch) {
  std::printf("%-24s %10zu %12llu %14llu %11s %10.4g %10s\n", name.c_str(), batch.new_points,
              (unsigned long long)batch.pairs_added, (unsigned long long)batch.total_pairs,
              batch.reclustered ? "yes" : "no", batch.displacement, format_seconds(batch.stats.seconds_total).c_str());
}
}  // namespace

Command add_rejoin_command(CLI::App& app) {
  auto* command =
      app.add_subcommand("rejoin", "RE-JOIN on the GPU: a self-join kept up to date as batches of points arrive");
  auto options = std::make_shared<RejoinOptions>();
  command->add_option("--input", options->input, "Initial point file")->required();
  command->add_option("--updates", options->updates, "Point files added in turn, e.g. --updates u1.npy,u2.npy")
      ->delimiter(',');
  add_schema_option(*command, option_schema::kEps, options->eps)->required();
  add_schema_option(*command, option_schema::kK, options->k)->capture_default_str();
  command
      ->add_option("--threshold", options->threshold,
                   "Recluster when the summed centroid displacement exceeds this (coordinate units)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  command->add_option("--seed", options->seed, "k-means seed")->capture_default_str();
  command->add_option("--device", options->device, "GPU ordinal")->capture_default_str();
  command->add_option("--output", options->output, "Final pair list: .csv, .npy or .bin");
  return {command, [options] {
            const GpuStatus gpus = query_gpus();
            if (!gpus.available) fail(ErrorKind::Unavailable, "rejoin needs a GPU: " + gpus.reason);
            const PointSet initial = load_input(options->input);
            std::vector<PointSet> updates;
            for (const std::string& path : options->updates) updates.push_back(load_input(path));
            RejoinSession session(options->threshold, options->seed, options->device);
            TerminalRun run;
            std::printf("%-24s %10s %12s %14s %11s %10s %10s\n", "batch", "new points", "pairs added", "total pairs",
                        "reclustered", "displaced", "time");
            print_batch(options->input, session.initial(initial, options->eps, options->k, &run.control()));
            for (std::size_t u = 0; u < updates.size(); ++u)
              print_batch(options->updates[u], session.update(updates[u], &run.control()));
            if (!options->output.empty()) {
              PairFileSink file(options->output, pair_format_for_path(options->output), session.size());
              file.add(session.pairs());
              file.finish();
              std::printf("wrote %s\n", options->output.c_str());
            }
            return 0;
          }};
}

}  // namespace simjoin::cli
