// simjoin-sweep: every engine at every eps (and k), timed as `simjoin bench` times, as a CSV table and
// a chart (.svg, .png or .pdf). `simjoin sweep ARGS` runs it; it is a program of its own because its
// charts are the application's (Qt Charts), which the Qt-free simjoin does not link.
#include <cstdio>
#include <memory>

#include "app/cli/command_main.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/machine_info.hpp"
#include "core/cancel_signals.hpp"
#include "cuda/gpu_engines.hpp"
#include "ui/charts/sweep_command.hpp"

int main(int argc, char** argv) {
  using namespace simjoin;
  handle_cancel_signals();
  EngineRegistry registry;
  register_cpu_engines(registry);
  register_gpu_engines(registry);

  CLI::App app{"simjoin sweep: run engines over several eps (and k) values; write CSV and a chart", "simjoin sweep"};
  auto options = std::make_shared<ui::SweepOptions>();
  app.add_option("--input", options->input, "Point file A")->required();
  app.add_option("--input-b", options->input_b, "Point file B: join A with B instead of A with itself");
  app.add_option("--engines", options->engines, "Engines, e.g. cpu-grid,cpu-kmeans")->required()->delimiter(',');
  app.add_option("--eps", options->eps_values, "Join radii, e.g. 0.1,0.2,0.4")->required()->delimiter(',');
  app.add_option("--k", options->k_values, "Partition counts for KMEANS-JOIN, e.g. 4,8,16")->delimiter(',');
  app.add_option("--chart", options->chart_path, "Chart image: .svg, .png or .pdf");
  app.add_option("--size", options->size, "Chart size: WIDTHxHEIGHT in pixels, or in inches (3.5x2.4in; pixels = inches x dpi)")->capture_default_str();
  app.add_option("--dpi", options->dpi, "Chart resolution: text keeps its printed size")->capture_default_str();
  app.add_option("--csv", options->csv_path,
                 "One row per point: engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,"
                 "replicated_points,compared_pairs");
  app.add_option("--repeat", options->timing.repeat, "Timed runs per point (their median is plotted)")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  app.add_option("--warmup", options->timing.warmup, "Untimed runs first per point")
      ->capture_default_str()->check(CLI::Range(0, 100));
  app.add_option("--metric", options->metric,
                 "Chart y axis: seconds, pairs, replicated, compared-ratio, largest-partition, smallest-partition")
      ->capture_default_str();
  app.add_option("--seed", options->base.seed, "Seed for randomised steps (k-means seeding)")->capture_default_str();
  app.add_option("--threads", options->base.threads, "CPU threads (0: all cores)")->capture_default_str();
  app.add_option("--devices", options->base.devices, cli::kDevicesHelp)->delimiter(',');
  app.add_flag("--quiet", options->quiet, "No line per run on stderr");
  // The whole program is one command.
  const cli::Command sweep{&app, [options, &registry] {
    options->registry = &registry;
    options->machine = machine_line(cli::this_machine());
    const int code = ui::run_sweep_command(*options);
    if (!options->csv_path.empty()) std::printf("wrote %s\n", options->csv_path.c_str());
    if (!options->chart_path.empty()) std::printf("wrote %s\n", options->chart_path.c_str());
    return code;
  }};
  return cli::run_commands(app, {sweep}, argc, argv);
}
