// simjoin generate: the named workloads and seeded synthetic point sets.
#include <cstdio>

#include "app/cli/commands.hpp"
#include "core/base/error.hpp"
#include "core/io/point_writers.hpp"
#include "core/points/generators.hpp"

namespace simjoin::cli {

namespace {
struct GenerateOptions {
  std::string workload, kind = "uniform", out;
  GeneratorSpec spec;
};
}  // namespace

Command add_generate_command(CLI::App& app) {
  auto* command = app.add_subcommand("generate", "Write a named workload or a synthetic point set to a file");
  auto options = std::make_shared<GenerateOptions>();
  GeneratorSpec& spec = options->spec;
  std::string workloads;
  for (const Workload& w : standard_workloads()) workloads += (workloads.empty() ? "" : ", ") + w.name;
  command->add_option("--workload", options->workload, "Named workload: " + workloads);
  command->add_option("--kind", options->kind, "uniform | clusters | correlated")->capture_default_str();
  command->add_option("--n", spec.n, "Number of points");
  command->add_option("--dims", spec.dims, "Dimensions")->capture_default_str();
  command->add_option("--clusters", spec.clusters, "Clusters (clusters, correlated)")->capture_default_str();
  command->add_option("--sigma", spec.sigma, "Per-coordinate noise of a cluster")->capture_default_str();
  command->add_option("--low", spec.low, "Lower coordinate bound")->capture_default_str();
  command->add_option("--high", spec.high, "Upper coordinate bound")->capture_default_str();
  command->add_option("--seed", spec.seed, "Random seed")->capture_default_str();
  command->add_option("--out", options->out, "Output file (.npy or .csv)")->required();
  return {command, [options, command] {
            GeneratorSpec spec = options->spec;
            if (!options->workload.empty()) {
              if (command->count("--n") || command->count("--kind"))
                fail(ErrorKind::Usage, "--workload fixes the distribution; do not combine it with --kind/--n");
              spec = find_workload(options->workload).spec;
            } else {
              if (!command->count("--n"))
                fail(ErrorKind::Usage, "give --workload NAME or --n N (with --kind, --dims, ...)");
              spec.kind = parse_distribution(options->kind);
            }
            const PointSet points = generate(spec);
            write_points(options->out, points);
            std::printf("wrote %zu points x %zu dims (%s) to %s\n", points.size(), points.dims(), points.source.c_str(),
                        options->out.c_str());
            return 0;
          }};
}

}  // namespace simjoin::cli
