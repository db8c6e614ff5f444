#pragma once
// Engine parameters shared by join and bench.
#include <CLI/CLI.hpp>

#include "core/engine.hpp"

namespace simjoin::cli {

struct EngineOptions {
  double eps = -1;
  int k = 0;
  std::uint64_t seed = 1;
  int threads = 0;
  bool no_unicomp = false;
  std::uint64_t batch_bytes = 0;
  std::vector<int> devices;
};

// Help of --devices, which join, bench and sweep share.
inline constexpr const char* kDevicesHelp =
    "GPU ordinals, e.g. --devices 0,1: gpu-grid and gpu-kmeans split the work across them (default: "
    "every GPU); the other GPU engines run on the first (default: 0)";

// --eps is required unless `eps_required` is false (bench takes eps from a named workload).
void add_engine_options(CLI::App& command, EngineOptions& options, bool eps_required = true);
JoinParams to_join_params(const EngineOptions& options);

}  // namespace simjoin::cli
