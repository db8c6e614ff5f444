// simjoin-studio [FILE] [--eps E] [--k K] [--engine NAME] [--view MODE] [--run [--stats S.json]]
//                [--max-pairs P] [--sweep-eps FROM,TO,STEPS [--sweep-engines A,B]] [--tab views|charts]
//                [--palette distinct|colorblind] [--legend shown|hidden] [--pick INDEX] [--lesson NAME] [--step N]
//                [--export-view F] [--export-chart F] [--export-neighbours CSV] [--open-session JSON]
//                [--save-session JSON] [--export-size WxH] [--export-dpi N] [--title TEXT] [--axis-units U|X,Y]
//                [--screenshot PNG] [--quit]
// A file that cannot be loaded, or a run that fails, leaves the window open with its error; with
// --quit the exit code is then the one `simjoin` gives (README): 3 bad input, 4 out of resources.
// The options are read in studio_options/studio_request, carried out in studio_actions.
#include <cstdio>

#include <QApplication>
#include <QCoreApplication>
#include <QTimer>

#include "app/gui/guarded_application.hpp"
#include "app/gui/studio_actions.hpp"
#include "app/gui/studio_options.hpp"
#include "app/gui/studio_request.hpp"
#include "app/registry/every_engine.hpp"
#include "core/io/cancel_signals.hpp"
#include "core/join/engine.hpp"
#include "core/report/machine_info.hpp"
#include "core/run/openmp_threads.hpp"
#include "cuda/gpu_engines.hpp"
#include "ui/main_window.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::studio;

namespace {

ui::DeviceSummary describe(const GpuStatus& gpus) {
  ui::DeviceSummary summary;
  summary.machine = QString::fromStdString(machine_line(describe_machine(gpus)));
  if (!gpus.available) {
    summary.status = QObject::tr("CPU only: %1").arg(QString::fromStdString(gpus.reason));
    return summary;
  }
  QStringList parts;
  for (const auto& device : gpus.devices) {
    const QString text = QObject::tr("%1 (%2 GiB free)")
                             .arg(QString::fromStdString(device.name))
                             .arg(device.free_bytes / double(1ull << 30), 0, 'f', 1);
    summary.gpu_names << text;
    parts << text;
  }
  summary.status = parts.join(", ");
  return summary;
}

void set_application_names() {
  QCoreApplication::setOrganizationName("Simjoin");
  QCoreApplication::setApplicationName("Simjoin Studio");
  QCoreApplication::setApplicationVersion(SIMJOIN_VERSION);
}

// --help and --version print and exit without a window, so without a display too: a QApplication
// would abort there before the parser runs.
void answer_help_or_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const QString arg = QString::fromLocal8Bit(argv[i]);
    if (arg == "--") return;
    if (arg == "-h" || arg == "-?" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version") {
      QCoreApplication app(argc, argv);
      set_application_names();
      Options options;
      options.parser.process(app);  // prints the answer and exits
    }
  }
}

// Without a display (and no platform chosen), figures and scripted runs (--export-*, --screenshot,
// --quit) use the offscreen platform; a window cannot open, so anything else is refused with exit 2
// instead of Qt's abort.
int choose_platform(int argc, char** argv) {
  if (qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
      qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
    return 0;
  for (int i = 1; i < argc; ++i) {
    const QString arg = QString::fromLocal8Bit(argv[i]).section('=', 0, 0);
    if (arg == "--quit" || arg == "--screenshot" || arg == "--export-view" || arg == "--export-chart") {
      qputenv("QT_QPA_PLATFORM", "offscreen");
      return 0;
    }
  }
  std::fprintf(stderr,
               "simjoin-studio: no display (DISPLAY and WAYLAND_DISPLAY are unset). Figures can be made without "
               "one: add --export-view, --export-chart or --screenshot with --quit, or set QT_QPA_PLATFORM=offscreen; "
               "for the window, run under xvfb-run -a simjoin-studio ...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  simjoin::prefer_sleeping_openmp_threads(argv);
  // SIGINT, SIGTERM, SIGHUP: exit 130 at once, an export's temporary removed and an older file kept.
  simjoin::handle_cancel_signals();
  answer_help_or_version(argc, argv);
  if (const int refused = choose_platform(argc, argv)) return refused;
  // Must precede the QApplication: every OpenGL context then gets a core profile VTK can use.
  ui::VtkViewWidget::setDefaultSurfaceFormat();
  GuardedApplication app(argc, argv);
  set_application_names();
  Options options;
  options.parser.process(app);

  EngineRegistry registry;
  register_every_engine(registry);
  ui::MainWindow window(registry, describe(query_gpus()));
  Request request;
  if (const int refused = read_command_line(options, window, registry, request)) return refused;

  app.setProperty("unattended", request.scripted);
  window.show();
  window.setViewMode(request.mode);
  Failure failure;
  watch_failures(window, request.scripted, failure);
  open_input(options, window, request, failure);
  // Data that could not be loaded has no figure: nothing is written, and the load's exit code (3) is
  // returned, where a window left open would have drawn an empty view or chart.
  const bool data_asked = !request.files.isEmpty() || !request.session.isEmpty();
  if (request.outputs && data_asked && !window.points()) return failure.code ? failure.code : 3;
  if (options.parser.isSet(options.run) && window.points()) run_join(options, window, failure);
  if (const int refused = show_requested(options, window, request, failure)) return refused;
  const bool quit = options.parser.isSet(options.quit);
  if (request.outputs)
    write_outputs_later(options, window, request, failure, app);
  else if (quit)
    QTimer::singleShot(0, &app, &QApplication::quit);
  const int code = app.exec();
  const int failed = failure.code ? failure.code : app.failure_code;
  return quit && failed ? failed : code;
}
