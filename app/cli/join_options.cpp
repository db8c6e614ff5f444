#include "app/cli/join_options.hpp"

namespace simjoin::cli {

void add_engine_options(CLI::App& command, EngineOptions& options, bool eps_required) {
  auto* eps = add_schema_option(command, option_schema::kEps, options.eps);
  if (eps_required) eps->required();
  add_schema_option(command, option_schema::kK, options.k)->capture_default_str();
  add_schema_option(command, option_schema::kSeed, options.seed)->capture_default_str();
  add_schema_option(command, option_schema::kThreads, options.threads)->capture_default_str();
  command.add_flag("--no-unicomp", options.no_unicomp, "Grid engines: search all neighbour cells (for comparison)");
  command.add_option("--batch-bytes", options.batch_bytes, "GPU result batch memory in bytes (0: automatic)");
  add_schema_option(command, option_schema::kDevices, options.devices)->delimiter(',');
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
  params.structures = false;  // no view on the command line (simjoin join --labels-vtp asks for them)
  return params;
}

}  // namespace simjoin::cli
