// simjoin-studio [FILE] [--eps E] [--k K] [--engine NAME] [--view MODE] [--run [--stats S.json]]
//                [--max-pairs P] [--sweep-eps FROM,TO,STEPS [--sweep-engines A,B]] [--tab views|charts]
//                [--palette distinct|colorblind] [--pick INDEX] [--lesson NAME] [--step N]
//                [--export-view F] [--export-chart F]
//                [--export-size WxH] [--export-dpi N] [--screenshot PNG] [--quit]
// A file that cannot be loaded, or a run that fails, leaves the window open with its error; with
// --quit the exit code is then the one `simjoin` gives (README): 3 bad input, 4 out of resources.
#include <cstdio>
#include <functional>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include "core/cancel_signals.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/machine_info.hpp"
#include "cuda/gpu_engines.hpp"
#include "ui/charts/sweep_runner.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/eps_spin_box.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/export/image_export.hpp"
#include "ui/export/image_size.hpp"
#include "ui/export/run_export.hpp"
#include "ui/lessons/open_lesson.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/view_figure.hpp"
#include "ui/samples.hpp"
#include "ui/step_through/step_through_tab.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/views/view_modes.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;

namespace {

ui::DeviceSummary describe(const GpuStatus& gpus) {
  ui::DeviceSummary summary;
  std::vector<std::string> names;
  for (const auto& device : gpus.devices) names.push_back(device.name);
  summary.machine = QString::fromStdString(machine_line(machine_info(describe_gpus(names, gpus.reason))));
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

// The command line, for the application and for --help/--version without a display.
struct Options {
  QCommandLineParser parser;
  const QCommandLineOption eps{"eps", "join radius, any positive number (default: suggested by the data)", "E"};
  const QCommandLineOption k{"k", "k-means partitions (0 = automatic)", "K"};
  const QCommandLineOption engine{"engine", "engine name", "NAME"};
  const QCommandLineOption view{"view", QString::fromStdString(ui::view_mode_options()), "MODE"};
  const QCommandLineOption run{"run", "run the join and wait for it"};
  const QCommandLineOption stats{"stats", "write the run's statistics as JSON (as simjoin join --stats)", "JSON"};
  const QCommandLineOption max_pairs{
      "max-pairs", "ask before a run expected to return more pairs (default 1e8; 0: never); refused with --quit or --screenshot",
      "P"};
  const QCommandLineOption screenshot{"screenshot", "save a PNG of the window", "PNG"};
  const QCommandLineOption export_view{
      "export-view", "write the 2-D view as a figure: the plot, its axes and legend (.png, .svg, .pdf)", "FILE"};
  const QCommandLineOption export_chart{
      "export-chart", "write the chart: the sweep's after --sweep-eps, else the run's phases (.png, .svg, .pdf)", "FILE"};
  const QCommandLineOption export_size{
      "export-size", "size of --export-view and --export-chart: WxH pixels (default 1200x800) or inches (3.5x2.4in)",
      "WxH"};
  const QCommandLineOption export_dpi{
      "export-dpi", "their resolution (default 150): printed size = pixels / dpi; text keeps its point size", "N"};
  const QCommandLineOption quit{"quit", "quit when done"};
  const QCommandLineOption sweep_eps{"sweep-eps", "sweep eps on the Charts tab (log spacing)", "FROM,TO,STEPS"};
  const QCommandLineOption sweep_engines{"sweep-engines", "engines of the sweep", "A,B"};
  const QCommandLineOption tab{"tab", "tab to show: views or charts", "TAB"};
  const QCommandLineOption pick{"pick", "pick point INDEX (a row of the file) in the views, after --run", "INDEX"};
  const QCommandLineOption lesson{"lesson", "open a lesson of File > Lessons (its sample, runs and explanation)", "NAME"};
  const QCommandLineOption step{"step", "show the Step through tab, advanced N steps (the engine's algorithm)", "N"};
  const QCommandLineOption palette{"palette", "partition colours: distinct (64 colours) or colorblind (Okabe-Ito)", "NAME"};

  Options() {
    parser.setApplicationDescription("Explore the epsilon-similarity join");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("FILE", "point file to open (or sample:NAME)");
    parser.addOptions({eps, k, engine, view, run, stats, max_pairs, sweep_eps, sweep_engines, tab, palette, pick, lesson, step,
                       export_view, export_chart, export_size, export_dpi, screenshot, quit});
  }
};

void set_application_names() {
  QCoreApplication::setOrganizationName("Simjoin");
  QCoreApplication::setApplicationName("Simjoin Studio");
  QCoreApplication::setApplicationVersion("0.1.0");
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

bool image_path(const QString& path) {
  return path.endsWith(".png", Qt::CaseInsensitive) || path.endsWith(".svg", Qt::CaseInsensitive) ||
         path.endsWith(".pdf", Qt::CaseInsensitive);
}

int fail_usage(const QString& message) {
  std::fprintf(stderr, "simjoin-studio: %s\n", qPrintable(message));
  return 2;
}

struct SweepRange {
  double from = 0, to = 0;
  int steps = 0;
};

// "FROM,TO,STEPS": 0 < FROM <= TO, STEPS >= 1.
std::optional<SweepRange> parse_sweep_range(const QString& text) {
  const QStringList parts = text.split(',');
  if (parts.size() != 3) return std::nullopt;
  const auto from = ui::parse_eps(parts[0]);
  const auto to = ui::parse_eps(parts[1]);
  bool ok = false;
  const int steps = parts[2].trimmed().toInt(&ok);
  if (!from || !to || *to < *from || !ok || steps < 1) return std::nullopt;
  return SweepRange{*from, *to, steps};
}

// Runs the Charts tab's sweep (log spacing) and waits for it; false on failure.
bool run_sweep(ui::SweepPanel& sweep, const SweepRange& range, const QString& engines) {
  if (!engines.isEmpty()) sweep.setEngines(engines.split(','));
  sweep.setEpsRange(range.from, range.to, range.steps, true);
  QEventLoop loop;
  bool finished = false;
  QObject::connect(sweep.runner(), &ui::SweepRunner::finished, &loop, [&] { finished = true; loop.quit(); });
  QObject::connect(sweep.runner(), &ui::SweepRunner::failed, &loop, &QEventLoop::quit);
  QObject::connect(sweep.runner(), &ui::SweepRunner::cancelled, &loop, &QEventLoop::quit);
  sweep.start();
  if (sweep.runner()->running()) loop.exec();
  return finished;
}

}  // namespace

int main(int argc, char** argv) {
  // SIGINT, SIGTERM, SIGHUP: exit 130 at once, an export's temporary removed and an older file kept.
  simjoin::handle_cancel_signals();
  answer_help_or_version(argc, argv);
  if (const int refused = choose_platform(argc, argv)) return refused;
  // Must precede the QApplication: every OpenGL context then gets a core profile VTK can use.
  ui::VtkViewWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  set_application_names();
  Options options;
  QCommandLineParser& parser = options.parser;
  parser.process(app);

  EngineRegistry registry;
  register_cpu_engines(registry);
  register_gpu_engines(registry);
  ui::MainWindow window(registry, describe(query_gpus()));

  // Every option is checked before the window shows.
  const QStringList files = parser.positionalArguments();
  std::optional<double> eps;
  if (parser.isSet(options.eps) && !(eps = ui::parse_eps(parser.value(options.eps))))
    return fail_usage("--eps must be a positive number, e.g. 0.5, 2000 or 1e-9");
  bool ok = true;
  std::optional<int> k;
  if (parser.isSet(options.k)) {
    k = parser.value(options.k).toInt(&ok);
    if (!ok || *k < 0) return fail_usage("--k must be an integer >= 0");
  }
  if (parser.isSet(options.engine) && !window.parameters()->setEngine(parser.value(options.engine))) {
    // In simjoin's words: an unknown name with the known ones, an engine that cannot run here with why.
    const std::string name = parser.value(options.engine).toStdString();
    const Engine* engine = registry.find(name);
    if (!engine) {
      try {
        registry.get(name);
      } catch (const Error& error) {
        return fail_usage(QString::fromStdString(error.what()));
      }
    }
    return fail_usage(QString::fromStdString(name + " is not available: " + engine->availability().reason));
  }
  ui::ViewMode mode = ui::ViewMode::Scatter;
  if (parser.isSet(options.view)) {
    const auto parsed = ui::parse_view_mode(parser.value(options.view).toStdString());
    if (!parsed) return fail_usage("--view must be " + QString::fromStdString(ui::view_mode_options()));
    mode = *parsed;
  }
  if (parser.isSet(options.max_pairs)) {
    const double pairs = parser.value(options.max_pairs).toDouble(&ok);
    if (!ok || !(pairs >= 0)) return fail_usage("--max-pairs must be a number >= 0, e.g. 1e9");
    window.setConfirmAbovePairs(pairs);
  }
  if (parser.isSet(options.palette)) {
    const auto palette = ui::parse_palette(parser.value(options.palette).toStdString());
    if (!palette) return fail_usage("--palette must be distinct or colorblind");
    window.setPalette(*palette);
  }
  std::optional<SweepRange> sweep_range;
  if (parser.isSet(options.sweep_eps) && !(sweep_range = parse_sweep_range(parser.value(options.sweep_eps))))
    return fail_usage("--sweep-eps must be FROM,TO,STEPS with 0 < FROM <= TO, e.g. 500,8000,5");
  const ui::Lesson* lesson = nullptr;
  if (parser.isSet(options.lesson) && !(lesson = ui::find_lesson(parser.value(options.lesson).toStdString())))
    return fail_usage("--lesson must be one of: " + QString::fromStdString(ui::lesson_names()));
  int steps = 0;
  if (parser.isSet(options.step) && ((steps = parser.value(options.step).toInt(&ok)), !ok || steps < 0))
    return fail_usage("--step must be an integer >= 0");
  const QString tab = parser.value(options.tab);
  if (!tab.isEmpty() && tab != "views" && tab != "charts") return fail_usage("--tab must be views or charts");
  if ((parser.isSet(options.run) || sweep_range) && files.isEmpty())
    return fail_usage("--run and --sweep-eps need a point file");
  if (parser.isSet(options.stats) && !parser.isSet(options.run)) return fail_usage("--stats needs --run");
  for (const QCommandLineOption* option : {&options.export_view, &options.export_chart})
    if (parser.isSet(*option) && !image_path(parser.value(*option)))
      return fail_usage("--" + option->names().first() + " writes .png, .svg or .pdf files");
  ui::ImageSize figure_size;
  if (parser.isSet(options.export_dpi)) {
    const std::optional<int> dpi = ui::parse_dpi(parser.value(options.export_dpi));
    if (!dpi) return fail_usage(QString("--export-dpi must be %1 to %2").arg(ui::kMinDpi).arg(ui::kMaxDpi));
    figure_size.dpi = *dpi;
  }
  if (parser.isSet(options.export_size)) {
    const auto pixels = ui::parse_image_size(parser.value(options.export_size), figure_size.dpi);
    if (!pixels)
      return fail_usage(QString("--export-size must be WIDTHxHEIGHT in pixels, each %1 to %2, e.g. 1600x1000, or "
                                "in inches, e.g. 3.5x2.4in")
                            .arg(ui::kMinImageSide).arg(ui::kMaxImageSide));
    figure_size.pixels = *pixels;
  }

  const bool outputs = parser.isSet(options.screenshot) || parser.isSet(options.export_view) ||
                       parser.isSet(options.export_chart);
  const bool scripted = parser.isSet(options.quit) || outputs;
  app.setProperty("unattended", scripted);
  window.show();
  window.setViewMode(mode);

  // The first failure decides the exit code with --quit.
  int failure = 0;
  const auto note_failure = [&failure](ErrorKind kind) {
    if (!failure) failure = exit_code_for(kind);
  };
  QObject::connect(&window, &ui::MainWindow::loadFailed, [&](ErrorKind kind) { note_failure(kind); });
  QObject::connect(window.runController(), &ui::RunController::runFailed,
                   [&](quint64, const ui::RunFailure& run_failure) { note_failure(run_failure.kind); });
  QObject::connect(window.runController(), &ui::RunController::runCancelled, [&] { note_failure(ErrorKind::Cancelled); });
  // Unattended, a run above --max-pairs is refused: out of resources, as simjoin bench refuses one.
  QObject::connect(window.runController(), &ui::RunController::runNeedsConfirmation, [&] {
    if (scripted) note_failure(ErrorKind::OutOfMemory);
  });

  if (!files.isEmpty()) {
    const QString file = files.first();
    if (file.startsWith("sample:")) window.openSample(file.mid(7));
    else window.openFile(file);
    window.waitForTask();
  }
  if (lesson && !ui::open_lesson(window, *lesson)) note_failure(ErrorKind::Internal);
  // Parameters given on the command line win over the ones the data suggests.
  if (eps) window.parameters()->setEps(*eps);
  if (k) window.parameters()->setK(*k);
  if (parser.isSet(options.run) && window.points()) {
    bool run_ok = false;
    QObject::connect(&window, &ui::MainWindow::runFinished, [&run_ok](bool finished) { run_ok = finished; });
    window.runJoin();
    window.waitForTask();
    if (!run_ok) std::fprintf(stderr, "simjoin-studio: the run did not complete\n");
    if (run_ok && parser.isSet(options.stats)) {
      try {
        ui::export_stats_json(*window.currentRun(), parser.value(options.stats).toStdString());
      } catch (const Error& error) {
        std::fprintf(stderr, "simjoin-studio: %s\n", error.what());
        note_failure(error.kind());
      }
    }
  }
  if (sweep_range && window.points() &&
      !run_sweep(*window.charts()->sweep(), *sweep_range, parser.value(options.sweep_engines))) {
    std::fprintf(stderr, "simjoin-studio: the sweep did not complete\n");
    note_failure(ErrorKind::Internal);
  }
  if (parser.isSet(options.pick) && window.points()) {
    const qulonglong index = parser.value(options.pick).toULongLong(&ok);
    if (!ok || index >= window.points()->size() || !window.view()->pick(std::uint32_t(index)))
      return fail_usage("--pick must be a point index below " + QString::number(window.points()->size()));
  }
  if (!tab.isEmpty() || sweep_range) window.tabs()->setCurrentIndex(tab == "views" ? 0 : 1);
  if (parser.isSet(options.step)) {
    auto* stepper = window.findChild<ui::StepThroughTab*>();
    stepper->followEngine(window.parameters()->engine());
    window.tabs()->setCurrentWidget(stepper);
    stepper->advance(steps);
  }
  if (outputs) {
    // Let the window lay out and paint once before rendering it.
    QTimer::singleShot(300, &window, [&] {
      bool all_written = true;
      const auto write = [&](const QCommandLineOption& option, const std::function<void(const std::string&)>& save) {
        if (!parser.isSet(option)) return;
        try {
          save(parser.value(option).toStdString());
        } catch (const Error& error) {
          std::fprintf(stderr, "simjoin-studio: %s\n", error.what());
          note_failure(error.kind());
          all_written = false;
        }
      };
      write(options.export_view,
            [&](const std::string& path) { ui::save_view_figure(window.view()->figure(), path, figure_size); });
      write(options.export_chart,
            [&](const std::string& path) { ui::save_chart_image(*window.charts()->currentChart(), path, figure_size); });
      write(options.screenshot, [&](const std::string& path) {
        if (!ui::save_image_file(window.screenshot(), QString::fromStdString(path))) fail(ErrorKind::BadInput, path + ": cannot write the screenshot");
      });
      // An output that could not be written ends the application, as with --quit.
      if (parser.isSet(options.quit) || !all_written) app.exit(failure);
    });
  } else if (parser.isSet(options.quit)) {
    QTimer::singleShot(0, &app, &QApplication::quit);
  }
  const int code = app.exec();
  return parser.isSet(options.quit) && failure ? failure : code;
}
