// simjoin-sweep: every engine at every eps (and k), timed as `simjoin bench` times, as a CSV table and
// a chart (.svg, .png or .pdf). `simjoin sweep ARGS` runs it; it is a program of its own because its
// charts are the application's (Qt Charts), which the Qt-free simjoin does not link.
#include <cstdio>
#include <memory>

#include "app/cli/command_main.hpp"
#include "app/cli/join_options.hpp"
#include "app/registry/every_engine.hpp"
#include "app/sweep/sweep_command.hpp"
#include "core/base/error.hpp"
#include "cuda/gpu_engines.hpp"

int main(int argc, char** argv) {
  using namespace simjoin;
  cli::start_program(argv);
  EngineRegistry registry;
  register_every_engine(registry);

  CLI::App app{"simjoin sweep: run engines over several eps (and k) values; write CSV and a chart", "simjoin sweep"};
  app.set_version_flag("--version", "simjoin-sweep " SIMJOIN_VERSION);
  auto options = std::make_shared<sweep::SweepOptions>();
  app.add_option("--input", options->input, "Point file A")->required();
  app.add_option("--input-b", options->input_b, "Point file B: join A with B instead of A with itself");
  app.add_option("--engines", options->engines, "Engines, e.g. cpu-grid,cpu-kmeans")->required()->delimiter(',');
  cli::add_schema_option(app, option_schema::kEps, options->eps_values, "; several: 0.1,0.2,0.4")
      ->required()
      ->delimiter(',');
  cli::add_schema_option(app, option_schema::kK, options->k_values, "; several: 4,8,16")->delimiter(',');
  app.add_option("--chart", options->chart_path, "Chart image: .svg, .png or .pdf");
  cli::add_schema_option(app, option_schema::kSize, options->size)->capture_default_str();
  cli::add_schema_option(app, option_schema::kDpi, options->dpi)->capture_default_str();
  app.add_option("--csv", options->csv_path,
                 "One row per point: engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,"
                 "replicated_points,compared_pairs");
  cli::add_schema_option(app, option_schema::kRepeat, options->timing.repeat)->capture_default_str();
  cli::add_schema_option(app, option_schema::kWarmup, options->timing.warmup)->capture_default_str();
  app.add_option("--metric", options->metric,
                 "Chart y axis: seconds, pairs, replicated, compared-ratio, largest-partition, smallest-partition")
      ->capture_default_str();
  cli::add_schema_option(app, option_schema::kSeed, options->base.seed)->capture_default_str();
  cli::add_schema_option(app, option_schema::kThreads, options->base.threads)->capture_default_str();
  cli::add_schema_option(app, option_schema::kDevices, options->base.devices)->delimiter(',');
  app.add_flag("--quiet", options->quiet, "No line per run on stderr");
  app.add_flag("--machine-details", options->machine_details,
               "The chart's subtitle says why no GPU could be used (by default: 'no GPU')");
  // The whole program is one command.
  const cli::Command sweep{&app, [options, &registry] {
                             // A size in inches meets the sides' range, or not, at the resolution chosen.
                             if (!option_schema::parse_image_size(options->size, options->dpi))
                               fail(ErrorKind::Usage, option_schema::refusal(option_schema::kSize));
                             options->registry = &registry;
                             options->machine = machine_line(this_machine());
                             const int code = sweep::run_sweep_command(*options);
                             if (!options->csv_path.empty()) std::printf("wrote %s\n", options->csv_path.c_str());
                             if (!options->chart_path.empty()) std::printf("wrote %s\n", options->chart_path.c_str());
                             return code;
                           }};
  return cli::run_commands(app, {sweep}, argc, argv);
}
