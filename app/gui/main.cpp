// simjoin-studio [FILE] [--eps E] [--k K] [--engine NAME] [--view MODE] [--run]
//                [--sweep-eps FROM,TO,STEPS [--sweep-engines A,B]] [--tab views|charts]
//                [--screenshot PNG] [--quit]
#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include "core/engine.hpp"
#include "cuda/gpu_engines.hpp"
#include "ui/charts/sweep_runner.hpp"
#include "ui/charts_tab.hpp"
#include "ui/main_window.hpp"
#include "ui/parameters_panel.hpp"
#include "ui/samples.hpp"
#include "ui/sweep_panel.hpp"
#include "ui/vtk_view_widget.hpp"

using namespace simjoin;

namespace {

ui::DeviceSummary describe(const GpuStatus& gpus) {
  ui::DeviceSummary summary;
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
  const QCommandLineOption eps{"eps", "join radius", "E"};
  const QCommandLineOption k{"k", "k-means partitions (0 = automatic)", "K"};
  const QCommandLineOption engine{"engine", "engine name", "NAME"};
  const QCommandLineOption view{"view", "scatter, partitions, replication or grid", "MODE"};
  const QCommandLineOption run{"run", "run the join and wait for it"};
  const QCommandLineOption screenshot{"screenshot", "save a PNG of the window", "PNG"};
  const QCommandLineOption quit{"quit", "quit when done"};
  const QCommandLineOption sweep_eps{"sweep-eps", "sweep eps on the Charts tab (log spacing)", "FROM,TO,STEPS"};
  const QCommandLineOption sweep_engines{"sweep-engines", "engines of the sweep", "A,B"};
  const QCommandLineOption tab{"tab", "tab to show: views or charts", "TAB"};

  Options() {
    parser.setApplicationDescription("Explore the epsilon-similarity join");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("FILE", "point file to open (or sample:NAME)");
    parser.addOptions({eps, k, engine, view, run, sweep_eps, sweep_engines, tab, screenshot, quit});
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

bool parse_mode(const QString& name, ui::ViewMode& mode) {
  const QStringList names = {"scatter", "partitions", "replication", "grid"};
  const int index = names.indexOf(name);
  if (index < 0) return false;
  mode = static_cast<ui::ViewMode>(index);
  return true;
}

int fail_usage(const QString& message) {
  std::fprintf(stderr, "simjoin-studio: %s\n", qPrintable(message));
  return 2;
}

// Runs the Charts tab's sweep over "FROM,TO,STEPS" (log spacing) and waits for it; false on failure.
bool run_sweep(ui::SweepPanel& sweep, const QString& range, const QString& engines) {
  const QStringList parts = range.split(',');
  bool ok = parts.size() == 3;
  const double from = ok ? parts[0].toDouble(&ok) : 0;
  const double to = ok ? parts[1].toDouble(&ok) : 0;
  const int steps = ok ? parts[2].toInt(&ok) : 0;
  if (!ok) return false;
  if (!engines.isEmpty()) sweep.setEngines(engines.split(','));
  sweep.setEpsRange(from, to, steps, true);
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
  answer_help_or_version(argc, argv);
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

  bool ok = true;
  if (parser.isSet(options.eps)) {
    const double value = parser.value(options.eps).toDouble(&ok);
    if (!ok || value < 0) return fail_usage("--eps must be a number >= 0");
    window.parameters()->setEps(value);
  }
  if (parser.isSet(options.k)) {
    const int value = parser.value(options.k).toInt(&ok);
    if (!ok || value < 0) return fail_usage("--k must be an integer >= 0");
    window.parameters()->setK(value);
  }
  if (parser.isSet(options.engine) && !window.parameters()->setEngine(parser.value(options.engine)))
    return fail_usage("unknown or unavailable engine: " + parser.value(options.engine));
  ui::ViewMode mode = ui::ViewMode::Scatter;
  if (parser.isSet(options.view) && !parse_mode(parser.value(options.view), mode))
    return fail_usage("--view must be scatter, partitions, replication or grid");

  const bool scripted = parser.isSet(options.quit) || parser.isSet(options.screenshot);
  app.setProperty("unattended", scripted);
  window.show();
  window.setViewMode(mode);

  const QStringList files = parser.positionalArguments();
  if (!files.isEmpty()) {
    const QString file = files.first();
    if (file.startsWith("sample:")) window.openSample(file.mid(7));
    else window.openFile(file);
    window.waitForTask();
    if (!window.points()) return fail_usage("could not load " + file);
  }
  if (parser.isSet(options.run)) {
    bool run_ok = false;
    QObject::connect(&window, &ui::MainWindow::runFinished, [&run_ok](bool ok) { run_ok = ok; });
    window.runJoin();
    window.waitForTask();
    if (!run_ok) std::fprintf(stderr, "simjoin-studio: the run did not complete\n");
  }
  if (parser.isSet(options.sweep_eps)) {
    if (!window.points()) return fail_usage("--sweep-eps needs a point file");
    if (!run_sweep(*window.charts()->sweep(), parser.value(options.sweep_eps), parser.value(options.sweep_engines)))
      std::fprintf(stderr, "simjoin-studio: the sweep did not complete (--sweep-eps FROM,TO,STEPS)\n");
  }
  if (parser.isSet(options.tab) || parser.isSet(options.sweep_eps)) {
    const QString name = parser.value(options.tab);
    if (!name.isEmpty() && name != "views" && name != "charts") return fail_usage("--tab must be views or charts");
    window.tabs()->setCurrentIndex(name == "views" ? 0 : 1);
  }
  if (parser.isSet(options.screenshot)) {
    // Let the window lay out and paint once before grabbing it.
    QTimer::singleShot(300, &window, [&] {
      if (!window.screenshot().save(parser.value(options.screenshot))) {
        std::fprintf(stderr, "simjoin-studio: cannot write %s\n", qPrintable(parser.value(options.screenshot)));
        app.exit(1);
      } else if (parser.isSet(options.quit)) {
        app.quit();
      }
    });
  } else if (parser.isSet(options.quit)) {
    QTimer::singleShot(0, &app, &QApplication::quit);
  }
  return app.exec();
}
