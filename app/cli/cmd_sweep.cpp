// simjoin sweep: every engine at every eps (and k), timed as `simjoin bench` times, as a CSV table and
// a chart (.svg, .png or .pdf).
// The charts come from the GUI's components: a build without the GUI keeps the subcommand only to
// say so.
#include <cstdio>
#include <memory>

#include "app/cli/commands.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/machine_info.hpp"
#include "core/error.hpp"
#ifdef SIMJOIN_SWEEP
#include "ui/charts/sweep_command.hpp"
#endif

namespace simjoin::cli {

#ifdef SIMJOIN_SWEEP
Command add_sweep_command(CLI::App& app, const EngineRegistry& registry) {
  auto* command = app.add_subcommand("sweep", "Run engines over several eps (and k) values; write CSV and a chart");
  auto options = std::make_shared<ui::SweepOptions>();
  command->add_option("--input", options->input, "Point file A")->required();
  command->add_option("--input-b", options->input_b, "Point file B: join A with B instead of A with itself");
  command->add_option("--engines", options->engines, "Engines, e.g. cpu-grid,cpu-kmeans")->required()->delimiter(',');
  command->add_option("--eps", options->eps_values, "Join radii, e.g. 0.1,0.2,0.4")->required()->delimiter(',');
  command->add_option("--k", options->k_values, "Partition counts for KMEANS-JOIN, e.g. 4,8,16")->delimiter(',');
  command->add_option("--chart", options->chart_path, "Chart image: .svg, .png or .pdf");
  command->add_option("--size", options->size, "Chart size in pixels, WIDTHxHEIGHT")->capture_default_str();
  command->add_option("--dpi", options->dpi, "Chart resolution: text keeps its printed size")->capture_default_str();
  command->add_option("--csv", options->csv_path,
                      "One row per point: engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,"
                      "replicated_points,compared_pairs");
  command->add_option("--repeat", options->timing.repeat, "Timed runs per point (their median is plotted)")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  command->add_option("--warmup", options->timing.warmup, "Untimed runs first per point")
      ->capture_default_str()->check(CLI::Range(0, 100));
  command->add_option("--metric", options->metric,
                      "Chart y axis: seconds, pairs, replicated, compared-ratio, largest-partition, smallest-partition")
      ->capture_default_str();
  command->add_option("--seed", options->base.seed, "Seed for randomised steps (k-means seeding)")->capture_default_str();
  command->add_option("--threads", options->base.threads, "CPU threads (0: all cores)")->capture_default_str();
  command->add_option("--devices", options->base.devices, kDevicesHelp)->delimiter(',');
  command->add_flag("--quiet", options->quiet, "No line per run on stderr");
  return {command, [options, &registry] {
    options->registry = &registry;
    options->machine = machine_line(this_machine());
    const int code = ui::run_sweep_command(*options);
    if (!options->csv_path.empty()) std::printf("wrote %s\n", options->csv_path.c_str());
    if (!options->chart_path.empty()) std::printf("wrote %s\n", options->chart_path.c_str());
    return code;
  }};
}
#else
Command add_sweep_command(CLI::App& app, const EngineRegistry&) {
  // No --help of its own: `simjoin sweep --help` failing tells scripts the command is missing.
  auto* command = app.add_subcommand("sweep", "Engine sweeps with charts (needs the GUI build)");
  command->set_help_flag();
  command->allow_extras();
  return {command, []() -> int {
    fail(ErrorKind::Unavailable, "simjoin sweep needs the GUI build (configure with -DSIMJOIN_GUI=ON)");
  }};
}
#endif

}  // namespace simjoin::cli
