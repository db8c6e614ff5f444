#pragma once
// The headless sweep behind `simjoin sweep`: runs every engine at every eps (and k), each point
// timed as `simjoin bench` times (warm-up, then repeats), writes one CSV row per point and the chart
// as .svg, .png or .pdf, with no display needed. Qt-free header; simjoin-sweep (main.cpp) calls it.
//
//   SweepOptions options;
//   options.registry = &registry;
//   options.engines = {"cpu-grid", "cpu-kmeans"};
//   options.eps_values = {0.1, 0.2, 0.5};
//   options.k_values = {10, 20};          // optional; the chart's x axis is k when eps is single
//   options.input = "points.csv";         // or options.a = already loaded points
//   options.csv_path = "sweep.csv";       // columns: see sweep_csv.hpp
//   options.chart_path = "sweep.svg";     // optional; .svg, .png or .pdf
//   options.metric = "seconds";           // see parse_metric in sweep_chart.hpp
//   return run_sweep_command(options);
//
// Without a QApplication one is created for drawing the chart; when neither DISPLAY nor
// WAYLAND_DISPLAY is set and QT_QPA_PLATFORM is unset, the offscreen platform is chosen. An existing
// QCoreApplication that is not a QApplication cannot draw charts: Error(Internal).
#include <memory>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "core/report/repeat_timing.hpp"

namespace simjoin::sweep {

struct SweepOptions {
  const EngineRegistry* registry = nullptr;
  std::vector<std::string> engines;
  std::vector<double> eps_values;
  std::vector<int> k_values;             // empty: base.k only
  std::string input;                     // point file of A, read with load_points (unless `a` is set)
  std::string input_b;                   // point file of B for A join B; empty for a self-join
  std::shared_ptr<const PointSet> a, b;  // already loaded points, used instead of the files
  JoinParams base;                       // seed, threads, devices, unicomp, batch size; eps and k are swept
  RepeatRule timing;                     // runs per point
  std::string machine;                   // for the chart's subtitle
  bool machine_details = false;          // --machine-details: why no GPU could be used, too
  std::string csv_path;                  // at least one of csv_path and chart_path
  std::string chart_path;
  std::string metric = "seconds";
  std::string size = "1200x800";  // the chart's pixels, "WxH", and resolution (ui/export/image_size.hpp)
  int dpi = 150;
  bool quiet = false;  // no line per run on stderr
};

// Returns 0 once the files are written. Throws simjoin::Error: Usage for bad options (checked before
// any run), BadInput for unreadable points, and whatever an engine throws.
int run_sweep_command(const SweepOptions& options);

}  // namespace simjoin::sweep
