#include "app/gui/studio_actions.hpp"

#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <string>

#include "ui/charts/chart_export.hpp"
#include "ui/charts/sweep_runner.hpp"
#include "ui/export/image_export.hpp"
#include "ui/export/run_export.hpp"
#include "ui/lessons/lesson_data.hpp"
#include "ui/lessons/open_lesson.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/session.hpp"
#include "ui/step_through/step_through_tab.hpp"
#include "ui/views/pick_neighbours.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/view_figure.hpp"

namespace simjoin::studio {

namespace {

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

}  // namespace

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

}  // namespace simjoin::studio
