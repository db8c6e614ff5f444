#include "app/sweep/sweep_command.hpp"

#include <QApplication>

#include <cstdio>
#include <cstdlib>

#include "core/base/error.hpp"
#include "core/io/cancel_signals.hpp"
#include "core/io/file_io.hpp"
#include "core/io/load_points.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/charts/sweep_csv.hpp"

namespace simjoin::sweep {

namespace {
// A QApplication for drawing, created here when the caller has none.
std::unique_ptr<QApplication> ensure_gui_application() {
  if (QCoreApplication::instance()) {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
      fail(ErrorKind::Internal, "drawing a chart needs a QApplication, not a QCoreApplication");
    return nullptr;
  }
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  static int argc = 1;
  static char name[] = "simjoin";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}

std::shared_ptr<const PointSet> points_from(const std::shared_ptr<const PointSet>& loaded, const std::string& path) {
  if (loaded) return loaded;
  if (path.empty()) return nullptr;
  return std::make_shared<const PointSet>(load_points(path));
}

ui::ImageSize chart_size(const SweepOptions& options) {
  if (!ui::parse_dpi(QString::number(options.dpi)))
    fail(ErrorKind::Usage, "chart dpi " + std::to_string(options.dpi) + ": give " + std::to_string(ui::kMinDpi) +
                               " to " + std::to_string(ui::kMaxDpi));
  const std::optional<QSize> pixels = ui::parse_image_size(QString::fromStdString(options.size), options.dpi);
  if (!pixels)
    fail(ErrorKind::Usage, "chart size '" + options.size + "': give WIDTHxHEIGHT in pixels, each " +
                               std::to_string(ui::kMinImageSide) + " to " + std::to_string(ui::kMaxImageSide) +
                               ", or in inches, e.g. 3.5x2.4in");
  return {*pixels, options.dpi};
}

void check_options(const SweepOptions& options) {
  if (!options.registry) fail(ErrorKind::Internal, "sweep without an engine registry");
  if (options.csv_path.empty() && options.chart_path.empty())
    fail(ErrorKind::Usage, "a sweep needs a CSV file, a chart file or both to write");
  if (!options.a && options.input.empty()) fail(ErrorKind::Usage, "a sweep needs input points");
  for (const std::string& engine : options.engines) options.registry->get(engine);
  ui::parse_metric(options.metric);
  if (!options.chart_path.empty()) {
    const std::string ext = lower_extension(options.chart_path);
    if (ext != ".svg" && ext != ".png" && ext != ".pdf")
      fail(ErrorKind::Usage, options.chart_path + ": unknown chart image type '" + ext + "'; use .svg, .png or .pdf");
  }
  chart_size(options);
  if (options.timing.repeat < 1 || options.timing.warmup < 0)
    fail(ErrorKind::Usage, "a sweep needs at least one timed run per point and no negative warm-up");
}
}  // namespace

int run_sweep_command(const SweepOptions& options) {
  check_options(options);
  ui::SweepSpec spec;
  spec.engines = options.engines;
  spec.eps_values = options.eps_values;
  spec.k_values = options.k_values;
  spec.base = options.base;
  spec.timing = options.timing;
  spec.machine = options.machine;
  spec.machine_details = options.machine_details;
  spec.a = points_from(options.a, options.input);
  spec.b = points_from(options.b, options.input_b);
  spec = spec.normalized();

  const auto app = options.chart_path.empty() ? nullptr : ensure_gui_application();
  ui::SweepRunner runner(*options.registry);
  RunControl control;
  std::size_t done = 0;
  // A signal during the runs cancels them (exit 130); one while the files are written ends the process
  // at once, removing their temporaries (core/io/cancel_signals.hpp).
  std::vector<ui::SweepPoint> points;
  {
    const CancelOnSignal cancelled_by_signals(control);
    points = runner.run(spec, control, [&](const ui::SweepPoint& point, std::size_t total) {
      ++done;
      if (!options.quiet)
        std::fprintf(stderr, "sweep %zu/%zu: %s eps=%g k=%s: %llu pairs in %.4g s (median of %d)\n", done, total,
                     point.engine.c_str(), point.eps, point.uses_k ? std::to_string(point.k).c_str() : "ignored",
                     static_cast<unsigned long long>(point.stats.pairs), point.seconds.median, point.timed_runs);
    });
  }
  control.throw_if_cancelled();

  if (!options.csv_path.empty()) ui::write_sweep_csv(points, options.csv_path);
  if (!options.chart_path.empty()) {
    ui::SweepChart chart;
    chart.begin(spec);
    chart.setMetric(ui::parse_metric(options.metric));
    for (const ui::SweepPoint& point : points) chart.addPoint(point);
    ui::save_chart_image(chart, options.chart_path, chart_size(options));
  }
  return 0;
}

}  // namespace simjoin::sweep
