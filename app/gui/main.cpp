// simjoin-studio [FILE] [--eps E] [--k K] [--engine NAME] [--view MODE] [--run [--stats S.json]]
//                [--max-pairs P] [--sweep-eps FROM,TO,STEPS [--sweep-engines A,B]] [--tab views|charts]
//                [--palette distinct|colorblind] [--legend shown|hidden] [--pick INDEX] [--lesson NAME] [--step N]
//                [--export-view F] [--export-chart F] [--export-neighbours CSV] [--open-session JSON]
//                [--save-session JSON] [--export-size WxH] [--export-dpi N] [--title TEXT] [--axis-units U|X,Y]
//                [--screenshot PNG] [--quit]
// A file that cannot be loaded, or a run that fails, leaves the window open with its error; with
// --quit the exit code is then the one `simjoin` gives (README): 3 bad input, 4 out of resources.
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QMessageBox>
#include <QTabWidget>
#include <QTimer>

#include "app/registry/every_engine.hpp"
#include "core/base/error.hpp"
#include "core/io/cancel_signals.hpp"
#include "core/join/engine.hpp"
#include "core/options/option_schema.hpp"
#include "core/report/machine_info.hpp"
#include "core/run/openmp_threads.hpp"
#include "cuda/gpu_engines.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/sweep_runner.hpp"
#include "ui/export/image_export.hpp"
#include "ui/export/image_size.hpp"
#include "ui/export/run_export.hpp"
#include "ui/lessons/lesson_data.hpp"
#include "ui/lessons/open_lesson.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/eps_spin_box.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/samples.hpp"
#include "ui/session.hpp"
#include "ui/step_through/step_through_tab.hpp"
#include "ui/views/pick_neighbours.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/view_figure.hpp"
#include "ui/views/view_modes.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;

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

// An option of the schema (core/options/option_schema.hpp): its name, help (with `note` after it) and
// value name.
QCommandLineOption schema_option(const option_schema::OptionSpec& spec, const QString& note = {}) {
  const auto text = [](std::string_view view) { return QString::fromUtf8(view.data(), qsizetype(view.size())); };
  return QCommandLineOption(text(spec.name), text(spec.help) + note, text(spec.value_name));
}

// The command line, for the application and for --help/--version without a display.
struct Options {
  QCommandLineParser parser;
  const QCommandLineOption eps = schema_option(option_schema::kEps, " (default: suggested by the data)");
  const QCommandLineOption k = schema_option(option_schema::kK);
  const QCommandLineOption engine{"engine", "engine name", "NAME"};
  const QCommandLineOption view{"view", QString::fromStdString(ui::view_mode_options()), "MODE"};
  const QCommandLineOption run{"run", "run the join and wait for it"};
  const QCommandLineOption stats{"stats", "write the run's statistics as JSON (as simjoin join --stats)", "JSON"};
  const QCommandLineOption max_pairs{
      "max-pairs",
      "ask before a run expected to return more pairs (default 1e8; 0: never); refused with --quit or --screenshot",
      "P"};
  const QCommandLineOption screenshot{"screenshot", "save a PNG of the window", "PNG"};
  const QCommandLineOption export_view{
      "export-view", "write the 2-D view as a figure: the plot, its axes and legend (.png, .svg, .pdf)", "FILE"};
  const QCommandLineOption export_chart{
      "export-chart", "write the chart: the sweep's after --sweep-eps, else the run's phases (.png, .svg, .pdf)",
      "FILE"};
  const QCommandLineOption export_size =
      schema_option(option_schema::kExportSize, "; for --export-view and --export-chart");
  const QCommandLineOption export_dpi =
      schema_option(option_schema::kExportDpi, "; for --export-view and --export-chart");
  const QCommandLineOption quit{"quit", "quit when done"};
  const QCommandLineOption sweep_eps{"sweep-eps", "sweep eps on the Charts tab (log spacing)", "FROM,TO,STEPS"};
  const QCommandLineOption sweep_engines{"sweep-engines", "engines of the sweep", "A,B"};
  const QCommandLineOption tab{"tab", "tab to show: views or charts", "TAB"};
  const QCommandLineOption pick{"pick", "pick point INDEX (a row of the file) in the views, after --run", "INDEX"};
  const QCommandLineOption lesson{
      "lesson", "open a lesson of File > Lessons on the FILE given (else on its sample): runs and explanation", "NAME"};
  const QCommandLineOption step{"step", "show the Step through tab, advanced N steps (the engine's algorithm)", "N"};
  const QCommandLineOption palette{"palette", "partition colours: distinct (64 colours) or colorblind (Okabe-Ito)",
                                   "NAME"};
  const QCommandLineOption legend{"legend", "the legend beside the 2-D view: shown (default) or hidden", "STATE"};
  const QCommandLineOption title{"title", "a title above the --export-view figure", "TEXT"};
  const QCommandLineOption axis_units{"axis-units", "units of the --export-view figure's axes: U (both) or X,Y",
                                      "UNITS"};
  // Not --session: Qt takes -session and --session for X11 session management before any parser sees them.
  const QCommandLineOption session{
      "open-session",
      "open a saved session (File > Save Session): its data, eps, k, engine, view, pick and palette; options "
      "given beside it win",
      "JSON"};
  const QCommandLineOption save_session{"save-session", "save the session (as File > Save Session) when done", "JSON"};
  const QCommandLineOption export_neighbours{
      "export-neighbours", "write the picked point's neighbours within eps, nearest first, with distances (CSV)",
      "CSV"};

  Options() {
    parser.setApplicationDescription("Explore the epsilon-similarity join");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("FILE", "point file to open (or sample:NAME)");
    parser.addOptions({eps,        k,          engine,        view,        run,          stats,
                       max_pairs,  sweep_eps,  sweep_engines, tab,         palette,      legend,
                       pick,       lesson,     step,          export_view, export_chart, export_size,
                       export_dpi, screenshot, quit,          session,     save_session, export_neighbours});
    parser.addOptions({title, axis_units});
  }
};

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
  QObject::connect(sweep.runner(), &ui::SweepRunner::finished, &loop, [&] {
    finished = true;
    loop.quit();
  });
  QObject::connect(sweep.runner(), &ui::SweepRunner::failed, &loop, &QEventLoop::quit);
  QObject::connect(sweep.runner(), &ui::SweepRunner::cancelled, &loop, &QEventLoop::quit);
  sweep.start();
  if (sweep.runner()->running()) loop.exec();
  return finished;
}

// The schema's message and exit code 2 where its check refuses the option's value; 0 otherwise.
int refuse_by_schema(const QCommandLineParser& parser, const QCommandLineOption& option,
                     const option_schema::OptionSpec& spec) {
  if (!parser.isSet(option)) return 0;
  const std::string refusal = option_schema::refusal(spec, parser.value(option).toStdString());
  return refusal.empty() ? 0 : fail_usage(QString::fromStdString(refusal));
}

// What the command line asks for, every value checked before the window shows.
struct Request {
  QStringList files;
  std::optional<double> eps;
  std::optional<int> k;
  ui::ViewMode mode = ui::ViewMode::Scatter;
  std::optional<SweepRange> sweep_range;
  const ui::Lesson* lesson = nullptr;
  int steps = 0;
  QString tab;
  ui::ImageSize figure_size;
  QString session;  // --open-session
  bool view_given = false;
  bool outputs = false;   // --screenshot, --export-view, --export-chart, --export-neighbours, --save-session
  bool scripted = false;  // outputs or --quit: nobody watches the window
};

// --eps and --k, by the schema's rules.
int read_parameters(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (const int refused = refuse_by_schema(parser, options.eps, option_schema::kEps)) return refused;
  if (const int refused = refuse_by_schema(parser, options.k, option_schema::kK)) return refused;
  if (parser.isSet(options.eps)) request.eps = option_schema::parse_eps(parser.value(options.eps).toStdString());
  if (parser.isSet(options.k)) request.k = option_schema::parse_k(parser.value(options.k).toStdString());
  return 0;
}

// --engine, refused in simjoin's words: an unknown name with the known ones, an engine that cannot run
// here with why.
int choose_engine(const Options& options, ui::MainWindow& window, const EngineRegistry& registry) {
  const QCommandLineParser& parser = options.parser;
  if (!parser.isSet(options.engine)) return 0;
  if (window.parameters()->setEngine(parser.value(options.engine))) {
    window.parameters()->setSource(ui::Setting::Engine, QObject::tr("the command line (--engine), not saved"));
    return 0;
  }
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

// --view, --max-pairs, --palette and --legend.
int read_presentation(const Options& options, ui::MainWindow& window, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (parser.isSet(options.view)) {
    const auto parsed = ui::parse_view_mode(parser.value(options.view).toStdString());
    if (!parsed) return fail_usage("--view must be " + QString::fromStdString(ui::view_mode_options()));
    request.mode = *parsed;
    request.view_given = true;
  }
  if (parser.isSet(options.max_pairs)) {
    bool ok = false;
    const double pairs = parser.value(options.max_pairs).toDouble(&ok);
    if (!ok || !(pairs >= 0)) return fail_usage("--max-pairs must be a number >= 0, e.g. 1e9");
    window.setConfirmAbovePairs(pairs);
  }
  if (parser.isSet(options.palette)) {
    const auto palette = ui::parse_palette(parser.value(options.palette).toStdString());
    if (!palette) return fail_usage("--palette must be distinct or colorblind");
    window.setPalette(*palette, QObject::tr("the command line (--palette), not saved"));
  }
  if (parser.isSet(options.legend)) {
    const QString state = parser.value(options.legend);
    if (state != "shown" && state != "hidden") return fail_usage("--legend must be shown or hidden");
    window.view()->setLegendShown(state == "shown");
  }
  return 0;
}

// --sweep-eps, --lesson, --step and --tab, and what --run, --sweep-eps and --stats need.
int read_scripted_steps(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (parser.isSet(options.sweep_eps) && !(request.sweep_range = parse_sweep_range(parser.value(options.sweep_eps))))
    return fail_usage("--sweep-eps must be FROM,TO,STEPS with 0 < FROM <= TO, e.g. 500,8000,5");
  if (parser.isSet(options.lesson) && !(request.lesson = ui::find_lesson(parser.value(options.lesson).toStdString())))
    return fail_usage("--lesson must be one of: " + QString::fromStdString(ui::lesson_names()));
  bool ok = true;
  if (parser.isSet(options.step) && ((request.steps = parser.value(options.step).toInt(&ok)), !ok || request.steps < 0))
    return fail_usage("--step must be an integer >= 0");
  request.tab = parser.value(options.tab);
  if (!request.tab.isEmpty() && request.tab != "views" && request.tab != "charts")
    return fail_usage("--tab must be views or charts");
  if (parser.isSet(options.stats) && !parser.isSet(options.run)) return fail_usage("--stats needs --run");
  return 0;
}

// The data: a point file or --open-session, and what needs it.
int read_data_needs(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  request.session = parser.value(options.session);
  if (!request.session.isEmpty() && !request.files.isEmpty())
    return fail_usage("give a point file or --open-session, not both");
  const bool data = !request.files.isEmpty() || !request.session.isEmpty();
  if ((parser.isSet(options.run) || request.sweep_range) && !data)
    return fail_usage("--run and --sweep-eps need a point file");
  if (parser.isSet(options.export_view) && !data && !request.lesson)
    return fail_usage("--export-view needs a point file (or sample:NAME)");
  if (parser.isSet(options.export_neighbours) && !parser.isSet(options.pick) && request.session.isEmpty())
    return fail_usage("--export-neighbours needs --pick INDEX");
  return 0;
}

// The figures' file types, and their resolution and size by the schema's rules.
int read_figure_options(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  for (const QCommandLineOption* option : {&options.export_view, &options.export_chart})
    if (parser.isSet(*option) && !image_path(parser.value(*option)))
      return fail_usage("--" + option->names().first() + " writes .png, .svg or .pdf files");
  if (const int refused = refuse_by_schema(parser, options.export_dpi, option_schema::kExportDpi)) return refused;
  if (parser.isSet(options.export_dpi)) request.figure_size.dpi = *ui::parse_dpi(parser.value(options.export_dpi));
  if (const int refused = refuse_by_schema(parser, options.export_size, option_schema::kExportSize)) return refused;
  if (parser.isSet(options.export_size)) {
    // Inches are checked against the sides' range only here, at the resolution chosen.
    const auto pixels = ui::parse_image_size(parser.value(options.export_size), request.figure_size.dpi);
    if (!pixels) return fail_usage(QString::fromStdString(option_schema::refusal(option_schema::kExportSize)));
    request.figure_size.pixels = *pixels;
  }
  return 0;
}

// Every option, checked before the window shows: 0, or the exit code of the first one refused.
int read_command_line(const Options& options, ui::MainWindow& window, const EngineRegistry& registry,
                      Request& request) {
  const QCommandLineParser& parser = options.parser;
  request.files = parser.positionalArguments();
  if (const int refused = read_parameters(options, request)) return refused;
  if (const int refused = choose_engine(options, window, registry)) return refused;
  if (const int refused = read_presentation(options, window, request)) return refused;
  if (const int refused = read_scripted_steps(options, request)) return refused;
  if (const int refused = read_data_needs(options, request)) return refused;
  if (const int refused = read_figure_options(options, request)) return refused;
  request.outputs = parser.isSet(options.screenshot) || parser.isSet(options.export_view) ||
                    parser.isSet(options.export_chart) || parser.isSet(options.export_neighbours) ||
                    parser.isSet(options.save_session);
  request.scripted = parser.isSet(options.quit) || request.outputs;
  return 0;
}

// The exit code with --quit: the first failure's.
struct Failure {
  int code = 0;
  void note(ErrorKind kind) {
    if (!code) code = exit_code_for(kind);
  }
};

void watch_failures(ui::MainWindow& window, bool scripted, Failure& failure) {
  QObject::connect(&window, &ui::MainWindow::loadFailed, [&failure](ErrorKind kind) { failure.note(kind); });
  QObject::connect(window.runController(), &ui::RunController::runFailed,
                   [&failure](quint64, const ui::RunFailure& run_failure) { failure.note(run_failure.kind); });
  QObject::connect(window.runController(), &ui::RunController::runCancelled,
                   [&failure] { failure.note(ErrorKind::Cancelled); });
  // Unattended, a run above --max-pairs is refused: out of resources, as simjoin bench refuses one.
  QObject::connect(window.runController(), &ui::RunController::runNeedsConfirmation, [&failure, scripted] {
    if (scripted) failure.note(ErrorKind::OutOfMemory);
  });
}

// --eps and --k, which win over the ones the data (or a lesson's sample) suggests.
void apply_parameters(ui::MainWindow& window, const Request& request) {
  const QString given = QObject::tr("the command line (%1)");
  if (request.eps) {
    window.parameters()->setEps(*request.eps);
    window.parameters()->setSource(ui::Setting::Eps, given.arg("--eps"));
  }
  if (request.k) {
    window.parameters()->setK(*request.k);
    window.parameters()->setSource(ui::Setting::K, given.arg("--k"));
  }
}

// A lesson on the loaded file, or on its sample without one; one that cannot run on the file says why
// (exit 3 with --quit) and how to open it on its sample.
void open_requested_lesson(ui::MainWindow& window, const ui::Lesson& lesson, Failure& failure) {
  const auto points = window.points();
  const std::string refusal = points ? ui::lesson_refusal(lesson, *points) : std::string();
  if (!refusal.empty()) {
    std::fprintf(stderr,
                 "simjoin-studio: the lesson %s cannot run on this file: %s; simjoin-studio --lesson %s "
                 "opens it on its sample (%s)\n",
                 lesson.name.c_str(), refusal.c_str(), lesson.name.c_str(), lesson.sample.c_str());
    failure.note(ErrorKind::BadInput);
  }
  if (!ui::open_lesson(window, lesson) && refusal.empty()) failure.note(ErrorKind::Internal);
}

// The file or sample, then the lesson on it (on its own sample without a file).
void open_input(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure) {
  if (!request.session.isEmpty()) {
    if (!window.openSession(request.session)) return;
    // What the command line gives beside the session wins over it.
    if (options.parser.isSet(options.engine)) window.parameters()->setEngine(options.parser.value(options.engine));
    if (request.view_given) window.setViewMode(request.mode);
    if (options.parser.isSet(options.palette))
      window.setPalette(*ui::parse_palette(options.parser.value(options.palette).toStdString()),
                        QObject::tr("the command line (--palette), not saved"));
  }
  if (!request.files.isEmpty()) {
    const QString file = request.files.first();
    if (file.startsWith("sample:"))
      window.openSample(file.mid(7));
    else
      window.openFile(file);
    window.waitForTask();
    if (!window.points()) return;  // its error is out; a lesson does not stand in for it
  }
  apply_parameters(window, request);
  if (request.lesson) open_requested_lesson(window, *request.lesson, failure);
  apply_parameters(window, request);
}

// --run [--stats S.json]: runs the join and waits for it.
void run_join(const Options& options, ui::MainWindow& window, Failure& failure) {
  bool run_ok = false;
  QObject::connect(&window, &ui::MainWindow::runFinished, [&run_ok](bool finished) { run_ok = finished; });
  window.runJoin();
  window.waitForTask();
  if (!run_ok) std::fprintf(stderr, "simjoin-studio: the run did not complete\n");
  if (!run_ok || !options.parser.isSet(options.stats)) return;
  try {
    ui::export_stats_json(*window.currentRun(), options.parser.value(options.stats).toStdString());
  } catch (const Error& error) {
    std::fprintf(stderr, "simjoin-studio: %s\n", error.what());
    failure.note(error.kind());
  }
}

// --sweep-eps, --pick, --tab and --step, in that order; exit code 2 for a --pick out of range.
int show_requested(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure) {
  const QCommandLineParser& parser = options.parser;
  if (request.sweep_range && window.points() &&
      !run_sweep(*window.charts()->sweep(), *request.sweep_range, parser.value(options.sweep_engines))) {
    std::fprintf(stderr, "simjoin-studio: the sweep did not complete\n");
    failure.note(ErrorKind::Internal);
  }
  if (parser.isSet(options.pick) && window.points()) {
    bool ok = false;
    const qulonglong index = parser.value(options.pick).toULongLong(&ok);
    if (!ok || index >= window.points()->size() || !window.view()->pick(std::uint32_t(index)))
      return fail_usage("--pick must be a point index below " + QString::number(window.points()->size()));
  }
  if (!request.tab.isEmpty() || request.sweep_range) window.tabs()->setCurrentIndex(request.tab == "views" ? 0 : 1);
  if (parser.isSet(options.step)) {
    auto* stepper = window.findChild<ui::StepThroughTab*>();
    stepper->followEngine(window.parameters()->engine());
    window.tabs()->setCurrentWidget(stepper);
    stepper->advance(request.steps);
  }
  return 0;
}

// --export-view, --export-chart and --screenshot, once the window has laid out and painted; then the
// application ends with --quit, or when an output could not be written.
void write_outputs_later(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure,
                         QApplication& app) {
  QTimer::singleShot(300, &window, [&] {
    const QCommandLineParser& parser = options.parser;
    bool all_written = true;
    const auto write = [&](const QCommandLineOption& option, const std::function<void(const std::string&)>& save) {
      if (!parser.isSet(option)) return;
      try {
        save(parser.value(option).toStdString());
      } catch (const Error& error) {
        std::fprintf(stderr, "simjoin-studio: %s\n", error.what());
        failure.note(error.kind());
        all_written = false;
      }
    };
    write(options.export_view, [&](const std::string& path) {
      const ui::FigureLabels labels =
          ui::with_axis_units({parser.value(options.title)}, parser.value(options.axis_units));
      window.view()->figureWriter(labels)(path, request.figure_size);
    });
    write(options.export_chart, [&](const std::string& path) {
      ui::save_chart_image(*window.charts()->currentChart(), path, request.figure_size);
    });
    write(options.export_neighbours, [&](const std::string& path) {
      if (!window.view()->picked()) fail(ErrorKind::Usage, path + ": no point is picked (--pick INDEX)");
      ui::write_pick_neighbours(*window.points(), *window.view()->picked(), window.parameters()->eps(), path);
    });
    write(options.save_session, [&](const std::string& path) { ui::write_session(window.session(), path); });
    write(options.screenshot, [&](const std::string& path) {
      if (!ui::save_image_file(window.screenshot(), QString::fromStdString(path)))
        fail(ErrorKind::BadInput, path + ": cannot write the screenshot");
    });
    if (parser.isSet(options.quit) || !all_written) app.exit(failure.code);
  });
}

// Every event passes here, so that an error a slot throws (data the window cannot show, an output it
// cannot write) is shown and the window kept, instead of ending the process through std::terminate.
// Unattended, it is printed, and --quit exits with the code `simjoin` gives for it.
class GuardedApplication : public QApplication {
 public:
  using QApplication::QApplication;
  int failure_code = 0;

  bool notify(QObject* receiver, QEvent* event) override {
    try {
      return QApplication::notify(receiver, event);
    } catch (const Error& error) {
      report(error.what(), error.kind());
    } catch (const std::bad_alloc&) {
      report("out of host memory", ErrorKind::OutOfMemory);
    } catch (const std::exception& error) {
      report(error.what(), ErrorKind::Internal);
    }
    return false;
  }

 private:
  void report(const char* what, ErrorKind kind) {
    if (!failure_code) failure_code = exit_code_for(kind);
    std::fprintf(stderr, "simjoin-studio: error: %s\n", what);
    if (!property("unattended").toBool()) QMessageBox::critical(activeWindow(), applicationName(), what);
  }
};

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
