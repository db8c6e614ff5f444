#include "ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "core/io/load_points.hpp"
#include "core/points/pca_axes.hpp"
#include "ui/export/image_export.hpp"
#include "ui/lessons/open_lesson.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/info_panels.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/run_status.hpp"
#include "ui/panels/runs_panel.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/run/run_staleness.hpp"
#include "ui/samples.hpp"
#include "ui/step_through/step_through_tab.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/stale_marker.hpp"
#include "ui/views/vtk_view_widget.hpp"
#include "ui/workbench/background_task.hpp"

namespace simjoin::ui {

namespace {
constexpr int kMaxRecent = 8;

QDockWidget* dock(QMainWindow* window, const QString& title, QWidget* content, Qt::DockWidgetArea area) {
  auto* widget = new QDockWidget(title, window);
  widget->setObjectName(title);
  widget->setWidget(content);
  window->addDockWidget(area, widget);
  return widget;
}

// The engine a failed GPU run falls back to: "auto" (it picks the best CPU engine for the data),
// else the first available exact CPU engine.
QString best_cpu_engine(const EngineRegistry& registry) {
  if (registry.find("auto")) return "auto";
  for (const auto& engine : registry.engines()) {
    const Capabilities caps = engine->capabilities();
    if (!caps.gpu && caps.exact && engine->availability().available) return QString::fromStdString(engine->name());
  }
  return {};
}

// The PCA of the 2-D views, its axes oriented (a map stays unmirrored), the eps the points' scale
// suggests and the columns' ranges and means (a fraction of a second each).
LoadedPoints analyse_points(std::shared_ptr<const PointSet> points, RunControl& control) {
  Pca fitted = fit_pca(*points);
  orient_axes(fitted);
  auto pca = std::make_shared<const Pca>(std::move(fitted));
  const EpsEstimate estimate = estimate_eps(*points, control);
  ColumnSummary columns = summarise_columns(*points);
  return {std::move(points), std::move(pca), estimate, std::move(columns)};
}
}  // namespace

MainWindow::MainWindow(const EngineRegistry& registry, DeviceSummary devices, QWidget* parent)
    : QMainWindow(parent),
      registry_(registry),
      data_(new DataPanel),
      parameters_(new ParametersPanel(registry, devices.gpu_names)),
      results_(new ResultsPanel),
      view_(new ProjectionView),
      tabs_(new QTabWidget),
      modes_(new QTabBar),
      charts_(new ChartsTab(registry, [this] { return parameters_->params(); })),
      runs_(new RunController(registry, this)),
      run_status_(new RunStatus),
      history_(new RunHistoryModel(this)),
      runs_panel_(new RunsPanel(registry, history_)) {
  setWindowTitle(tr("Simjoin Studio"));
  setAcceptDrops(true);
  for (const ViewModeInfo& mode : view_modes()) {
    const int tab = modes_->addTab(tr(mode.title));
    modes_->setTabToolTip(tab, tr(mode.what));
  }
  auto* views = new QWidget;
  auto* layout = new QVBoxLayout(views);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(modes_);
  layout->addWidget(view_, 1);
  tabs_->addTab(views, tr("2-D views"));
  tabs_->addTab(charts_, tr("Charts"));
  tabs_->addTab(new StepThroughTab(registry, this), tr("Step through"));
  setCentralWidget(tabs_);

  buildDocks(devices);
  connectControls();
  view_->setEps(parameters_->eps());

  buildMenus();
  restoreSettings();
}

// eps and k belong to a data set (they come with each one); the engine and palette are a person's
// choice, saved when made in the window and only then (a command line's choice is for its run alone).
void MainWindow::restoreSettings() {
  QSettings settings;
  const QString saved = tr("saved settings (%1)").arg(settings.fileName());
  const bool engine_saved = settings.contains("engine") && parameters_->setEngine(settings.value("engine").toString());
  if (!engine_saved) parameters_->setEngine("auto");
  parameters_->setSource(Setting::Engine, engine_saved ? saved : tr("the default"));
  const auto palette = parse_palette(settings.value("palette").toString().toStdString());
  setPalette(palette.value_or(PaletteKind::Distinct), palette ? saved : tr("the default"));
  parameters_->setSource(Setting::Eps, tr("the default, until data is loaded"));
  parameters_->setSource(Setting::K, tr("the default (auto)"));
  resize(1400, 900);
  restoreGeometry(settings.value("geometry").toByteArray());
  restoreState(settings.value("windowState").toByteArray());
}

MainWindow::~MainWindow() = default;

// The panels around the views, and the machine in the status bar and the charts' captions.
void MainWindow::buildDocks(const DeviceSummary& devices) {
  QDockWidget* data = dock(this, tr("Data"), data_, Qt::LeftDockWidgetArea);
  dock(this, tr("Parameters"), parameters_, Qt::LeftDockWidgetArea);
  dock(this, tr("Results"), results_, Qt::RightDockWidgetArea);
  QDockWidget* runs = dock(this, tr("Runs"), runs_panel_, Qt::BottomDockWidgetArea);
  resizeDocks({runs}, {170}, Qt::Vertical);    // the views keep most of the height
  resizeDocks({data}, {340}, Qt::Horizontal);  // room for the column and component tables
  connect(runs_panel_, &RunsPanel::loadRequested, this, &MainWindow::showRun);
  statusBar()->addPermanentWidget(new QLabel(devices.status));
  charts_->setMachine(devices.machine);
}

// The parameters start runs; the run controller's news reaches the panels.
void MainWindow::connectControls() {
  connect(modes_, &QTabBar::currentChanged, this, [this](int index) { view_->setMode(static_cast<ViewMode>(index)); });
  parameters_->runArea()->addWidget(run_status_);
  connect(parameters_, &ParametersPanel::changed, this, [this] {
    view_->setEps(parameters_->eps());
    updateStale();
    if (points_) runs_->setRequest(currentRequest());
  });
  connect(parameters_, &ParametersPanel::engineChosen, this,
          [](const QString& engine) { QSettings().setValue("engine", engine); });
  connect(parameters_, &ParametersPanel::runRequested, this, &MainWindow::runJoin);
  connect(parameters_, &ParametersPanel::cancelRequested, runs_, &RunController::cancel);
  connect(run_status_->autoRun(), &QCheckBox::toggled, this, [this](bool on) {
    runs_->setAutoRun(on);
    if (on && points_) runs_->setRequest(currentRequest());
  });
  connect(runs_, &RunController::runStarted, this, [this] {
    if (confirm_box_) confirm_box_->close();  // the question was about another run
    parameters_->setRunning(true);
    run_status_->started(QString::fromStdString(runs_->request().engine));
  });
  connect(runs_, &RunController::runProgress, run_status_,
          [this](quint64, double fraction, const QString& phase) { run_status_->progress(fraction, phase); });
  connect(runs_, &RunController::runFinished, this, [this](quint64, RunRecordPtr record) { onRunFinished(record); });
  connect(runs_, &RunController::runFailed, this, [this](quint64, const RunFailure& failure) { onRunFailed(failure); });
  connect(runs_, &RunController::runNeedsConfirmation, this,
          [this](quint64, double pairs) { onRunNeedsConfirmation(pairs); });
  connect(runs_, &RunController::runCancelled, this, [this] {
    parameters_->setRunning(false);
    run_status_->stopped(tr("Run cancelled."));
    statusBar()->showMessage(tr("Run cancelled"), 5000);
    cancelled_since_shown_ = true;
    updateStale();
    emit runFinished(false);
  });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open points"), QSettings().value("lastDir").toString(),
        tr("Point files (*.csv *.tsv *.txt *.npy *.ply *.vtk *.vtp *.las);;All files (*)"));
    if (!path.isEmpty()) openFile(path, true);
  });
  QMenu* samples = file->addMenu(tr("Open &Sample"));
  for (const QString& name : sample_names()) samples->addAction(name, this, [this, name] { openSample(name); });
  QMenu* lessons_menu = file->addMenu(tr("&Lessons"));
  for (const Lesson& lesson : lessons())
    lessons_menu->addAction(QString::fromStdString(lesson.title), this,
                            [this, &lesson] { open_lesson(*this, lesson); });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  refreshRecentMenu();
  file->addSeparator();
  buildExportMenu(file);
  buildSessionMenu(file);
  file->addAction(tr("Save Screens&hot..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  &MainWindow::saveScreenshotAs);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (const ViewModeInfo& info : view_modes())
    view->addAction(tr(info.title), QKeySequence(Qt::CTRL | (Qt::Key_1 + static_cast<int>(info.mode))), this,
                    [this, mode = info.mode] { setViewMode(mode); });
  view->addSeparator();
  colorblind_ = view->addAction(tr("Colour-&blind-safe palette"), this, [this](bool on) {
    const PaletteKind palette = on ? PaletteKind::ColorBlind : PaletteKind::Distinct;
    QSettings().setValue("palette", QString::fromStdString(palette_name(palette)));
    setPalette(palette, tr("chosen in the window (saved)"));
  });
  colorblind_->setCheckable(true);
  view->setToolTipsVisible(true);
  view->addAction(tr("&Reset View"), QKeySequence(Qt::CTRL | Qt::Key_R), view_, &ProjectionView::resetCamera);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(tr("&Run Join"), QKeySequence(Qt::CTRL | Qt::Key_Return), this, &MainWindow::runJoin);
  run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), runs_, &RunController::cancel);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About"), this, &MainWindow::showAbout);
}

void MainWindow::setPalette(PaletteKind palette, const QString& source) {
  colorblind_->setChecked(palette == PaletteKind::ColorBlind);
  const QString what = tr("Partitions in Okabe & Ito's colours, told apart with any colour vision (up to %1)")
                           .arg(palette_size(PaletteKind::ColorBlind));
  if (!source.isEmpty()) colorblind_->setToolTip(tr("%1\nPalette from: %2").arg(what, source));
  view_->setPalette(palette);
}

void MainWindow::setViewMode(ViewMode mode) {
  tabs_->setCurrentIndex(0);
  modes_->setCurrentIndex(static_cast<int>(mode));
  view_->setMode(mode);
}

void MainWindow::openFile(const QString& path, bool remember) {
  const std::string file = path.toStdString();
  load(
      tr("Loading %1").arg(QFileInfo(path).fileName()),
      [file](RunControl& control) { return load_points(file, {}, &control); }, remember ? path : QString(),
      QFileInfo(path).absoluteFilePath());
}

void MainWindow::openSample(const QString& name) {
  load(
      tr("Loading sample %1").arg(name), [name](RunControl& control) { return load_sample(name, &control); }, QString(),
      "sample:" + name);
}

void MainWindow::load(const QString& title, std::function<PointSet(RunControl&)> loader, const QString& recent,
                      const QString& data_path) {
  analyseInBackground(
      title,
      [loader](RunControl& control) {
        auto points = std::make_shared<PointSet>(loader(control));
        require_finite(*points, points->source);
        if (points->empty()) fail(ErrorKind::BadInput, points->source + ": the file holds no points");
        return std::shared_ptr<const PointSet>(std::move(points));
      },
      [this, recent, data_path](const LoadedPoints& loaded) {
        if (!recent.isEmpty()) addRecent(recent);
        data_path_ = data_path;
        setPoints(loaded, loaded.estimate.eps, 0, tr("suggested by the data"));
      });
}

void MainWindow::analyseInBackground(const QString& title,
                                     std::function<std::shared_ptr<const PointSet>(RunControl&)> source,
                                     std::function<void(const LoadedPoints&)> then) {
  if (task_) return;
  auto loaded = std::make_shared<LoadedPoints>();
  task_ = new BackgroundTask(
      title, [loaded, source](RunControl& control) { *loaded = analyse_points(source(control), control); }, this);
  connect(task_, &BackgroundTask::finished, this, [=, this](bool ok, bool cancelled, const QString& error) {
    const ErrorKind kind = cancelled ? ErrorKind::Cancelled : task_->errorKind();
    task_->deleteLater();
    task_ = nullptr;
    if (!ok) {
      if (!cancelled) showError(title, error);
      emit loadFailed(kind, error);
      return;
    }
    then(*loaded);
  });
}

void MainWindow::setPoints(const LoadedPoints& loaded, double eps, int k, const QString& source) {
  runs_->cancel();  // a run on the old points is stale
  points_ = loaded.points;
  current_.reset();
  updateStale();
  charts_->showRun(nullptr);
  charts_->sweep()->setPoints(points_);
  data_->display(*points_, loaded.pca.get(), loaded.estimate, loaded.columns);
  results_->clear();
  view_->setPoints(points_, loaded.pca);
  parameters_->setEstimate(loaded.estimate);
  parameters_->setEps(eps);
  parameters_->setK(k);
  parameters_->setSource(Setting::Eps, source);
  parameters_->setSource(Setting::K, k ? source : tr("the default (auto)"));
  // Around eps, within the positive finite doubles (data near 1e308 or subnormal has its eps there too).
  constexpr double kLeast = std::numeric_limits<double>::denorm_min(), kMost = std::numeric_limits<double>::max();
  charts_->sweep()->setEpsRange(std::max(eps / 4, kLeast), std::min(eps * 4, kMost), 5, true);
  statusBar()->showMessage(tr("Loaded %1 points").arg(points_->size()), 5000);
  emit pointsLoaded();
  runs_->setRequest(currentRequest());  // with auto-run on, joins the new points
}

RunRequest MainWindow::currentRequest() const {
  RunRequest request;
  request.engine = parameters_->engine().toStdString();
  request.a = points_;
  request.params = parameters_->params();
  request.confirm_above_pairs = confirm_above_pairs_;
  return request;
}

void MainWindow::runJoin() {
  if (!points_) return showError(tr("Run"), tr("Load points first."));
  if (!registry_.find(parameters_->engine().toStdString())) return showError(tr("Run"), tr("No engine selected."));
  runs_->setRequest(currentRequest());
  runs_->start(runs_->request());
}

void MainWindow::runOnCpu() {
  const QString engine = best_cpu_engine(registry_);
  if (engine.isEmpty() || !parameters_->setEngine(engine))
    return showError(tr("Run on CPU"), tr("No CPU engine is available."));
  runJoin();
}

void MainWindow::onRunFinished(RunRecordPtr record) {
  parameters_->setRunning(false);
  const RunStats& stats = record->result.stats;
  const QString text = tr("%1: %2 pairs in %3 s")
                           .arg(QString::fromStdString(stats.engine))
                           .arg(stats.pairs)
                           .arg(stats.seconds_total, 0, 'g', 4);
  run_status_->stopped(text);
  statusBar()->showMessage(text, 8000);
  history_->addRun(record);
  // A run on points replaced meanwhile is stale for the views.
  if (record->request.a == points_) showRun(record);
  emit runFinished(true);
}

void MainWindow::onRunFailed(const RunFailure& failure) {
  parameters_->setRunning(false);
  run_status_->stopped(tr("Run failed."));
  emit runFinished(false);
  if (qApp->property("unattended").toBool() || !failure.cpu_fallback)
    return showError(tr("Run failed"), failure.message);
  // Not modal: the window stays usable while the choice is open.
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Run failed"), failure.message, QMessageBox::Close, this);
  box->setObjectName("runFailure");
  box->setAttribute(Qt::WA_DeleteOnClose);
  QPushButton* cpu = box->addButton(tr("Run on CPU"), QMessageBox::AcceptRole);
  connect(cpu, &QPushButton::clicked, this, &MainWindow::runOnCpu);
  box->open();
}

void MainWindow::onRunNeedsConfirmation(double pairs) {
  parameters_->setRunning(false);
  const QString size = tr("about %1 pairs are expected (estimated from a sample), more than %2")
                           .arg(pairs, 0, 'g', 3)
                           .arg(confirm_above_pairs_, 0, 'g', 3);
  run_status_->stopped(tr("Not run: %1.").arg(size));
  if (qApp->property("unattended").toBool()) {
    emit runFinished(false);
    return showError(tr("Run not started"), tr("%1; --max-pairs sets the limit.").arg(size));
  }
  // Not modal: the window stays usable while the question is open; a new run closes it.
  auto* box = new QMessageBox(QMessageBox::Question, tr("Large result"),
                              tr("For this join %1. Run it anyway?").arg(size), QMessageBox::Cancel, this);
  box->setObjectName("largeResult");
  box->setAttribute(Qt::WA_DeleteOnClose);
  QPushButton* run = box->addButton(tr("Run"), QMessageBox::AcceptRole);
  connect(run, &QPushButton::clicked, this, [this] {
    RunRequest request = runs_->request();
    request.confirm_above_pairs = 0;
    runs_->start(request);
  });
  confirm_box_ = box;
  box->open();
}

void MainWindow::showRun(RunRecordPtr record) {
  if (record->request.a == points_) return displayRun(std::move(record));
  analyseInBackground(
      tr("Loading the points of run #%1").arg(record->id), [points = record->request.a](RunControl&) { return points; },
      [this, record](const LoadedPoints& loaded) {
        setPoints(loaded, record->request.params.eps, record->request.params.k, tr("run #%1").arg(record->id));
        displayRun(record);
      });
}

void MainWindow::displayRun(RunRecordPtr record) {
  current_ = std::move(record);
  cancelled_since_shown_ = false;
  updateStale();
  results_->display(current_->result);
  charts_->showRun(current_);
  // The views share the record's result (aliasing: the record stays alive with it).
  view_->setResult(std::shared_ptr<const RunResult>(current_, &current_->result));
}

void MainWindow::updateStale() {
  const QString reason = current_ ? stale_reason(*current_, currentRequest(), cancelled_since_shown_) : QString();
  view_->setStale(reason);
  results_->staleMarker()->setReason(reason);
  history_->setShown(current_.get(), reason);
}

void MainWindow::waitForTask() {
  if (task_) task_->wait();
  if (runs_->running()) {
    QEventLoop loop;
    const auto quit = [&loop] { loop.quit(); };
    connect(runs_, &RunController::runFinished, &loop, quit);
    connect(runs_, &RunController::runFailed, &loop, quit);
    connect(runs_, &RunController::runCancelled, &loop, quit);
    connect(runs_, &RunController::runNeedsConfirmation, &loop, quit);
    loop.exec();
  }
  view_->settle();  // and the drawing of what the task brought
}

void MainWindow::showError(const QString& what, const QString& message) {
  // Command-line use without a user: report on stderr instead of waiting for a dialog.
  if (qApp->property("unattended").toBool()) {
    qWarning("%s: %s", qPrintable(what), qPrintable(message));
    return;
  }
  // Window-modal but not blocking: the caller returns, and nothing it started stays on top.
  auto* box = new QMessageBox(QMessageBox::Warning, what, message, QMessageBox::Close, this);
  box->setObjectName("error");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList files = settings.value("recentFiles").toStringList();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecent) files.removeLast();
  settings.setValue("recentFiles", files);
  settings.setValue("lastDir", QFileInfo(path).absolutePath());
  refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
  recent_menu_->clear();
  const QStringList files = QSettings().value("recentFiles").toStringList();
  for (const QString& path : files) recent_menu_->addAction(path, this, [this, path] { openFile(path, true); });
  recent_menu_->setEnabled(!files.isEmpty());
}

QImage MainWindow::screenshot() {
  view_->settle();
  return grab_with_view(this, view_->vtkWidget());
}

void MainWindow::saveScreenshotAs() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), "simjoin.png", tr("PNG (*.png)"));
  if (!path.isEmpty() && !save_image_file(screenshot(), path))
    showError(tr("Screenshot"), tr("Cannot write %1").arg(path));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile(), true);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // The layout a person left; a scripted run (nobody watches) leaves the settings as they were.
  if (!qApp->property("unattended").toBool()) {
    QSettings settings;
    settings.setValue("geometry", saveGeometry());
    settings.setValue("windowState", saveState());
  }
  if (task_) task_->cancel();
  runs_->cancel();
  event->accept();
}

}  // namespace simjoin::ui
