#include "app/cli/join_options.hpp"

namespace simjoin::cli {

void add_engine_options(CLI::App& command, EngineOptions& options, bool eps_required) {
  auto* eps = command.add_option("--eps", options.eps, "Join radius (inclusive, Euclidean)");
  if (eps_required) eps->required();
  command.add_option("--k", options.k, "Partitions for KMEANS-JOIN (0: the engine chooses)")->capture_default_str();
  command.add_option("--seed", options.seed, "Seed for randomised steps (k-means seeding)")->capture_default_str();
  command.add_option("--threads", options.threads, "CPU threads (0: all cores)")->capture_default_str();
  command.add_flag("--no-unicomp", options.no_unicomp, "Grid engines: search all neighbour cells (for comparison)");
  command.add_option("--batch-bytes", options.batch_bytes, "GPU result batch memory in bytes (0: automatic)");
  command.add_option("--devices", options.devices, kDevicesHelp)->delimiter(',');
}

JoinParams to_join_params(const EngineOptions& options) {
  JoinParams params;
  params.eps = options.eps;
  params.k = options.k;
  params.seed = options.seed;
  params.threads = options.threads;
  params.unicomp = !options.no_unicomp;
  params.batch_bytes = options.batch_bytes;
  params.devices = options.devices;
  return params;
}

}  // namespace simjoin::cli
