#include "ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/error.hpp"
#include "core/vtkio/load_points.hpp"
#include "ui/background_task.hpp"
#include "ui/info_panels.hpp"
#include "ui/parameters_panel.hpp"
#include "ui/projection_view.hpp"
#include "ui/samples.hpp"
#include "ui/vtk_view_widget.hpp"

namespace simjoin::ui {

namespace {
constexpr int kMaxRecent = 8;
const char* const kModeNames[] = {"Scatter", "Partitions", "Replication", "Grid"};

QDockWidget* dock(QMainWindow* window, const QString& title, QWidget* content, Qt::DockWidgetArea area) {
  auto* widget = new QDockWidget(title, window);
  widget->setObjectName(title);
  widget->setWidget(content);
  window->addDockWidget(area, widget);
  return widget;
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
      modes_(new QTabBar) {
  setWindowTitle(tr("Simjoin Studio"));
  setAcceptDrops(true);
  for (const char* name : kModeNames) modes_->addTab(tr(name));
  auto* views = new QWidget;
  auto* layout = new QVBoxLayout(views);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(modes_);
  layout->addWidget(view_, 1);
  tabs_->addTab(views, tr("2-D views"));
  // Charts of runs and sweeps go here.
  auto* charts = new QLabel(tr("Charts appear here after runs."));
  charts->setObjectName("chartsPlaceholder");
  charts->setAlignment(Qt::AlignCenter);
  tabs_->addTab(charts, tr("Charts"));
  setCentralWidget(tabs_);

  dock(this, tr("Data"), data_, Qt::LeftDockWidgetArea);
  dock(this, tr("Parameters"), parameters_, Qt::LeftDockWidgetArea);
  dock(this, tr("Results"), results_, Qt::RightDockWidgetArea);
  statusBar()->addPermanentWidget(new QLabel(devices.status));

  connect(modes_, &QTabBar::currentChanged, this, [this](int index) { view_->setMode(static_cast<ViewMode>(index)); });
  connect(parameters_, &ParametersPanel::changed, this, [this] { view_->setEps(parameters_->eps()); });
  connect(parameters_, &ParametersPanel::runRequested, this, &MainWindow::runJoin);
  connect(parameters_, &ParametersPanel::cancelRequested, this, [this] {
    if (task_) task_->cancel();
  });
  view_->setEps(parameters_->eps());

  QSettings settings;
  parameters_->setEps(settings.value("eps", 0.1).toDouble());
  parameters_->setK(settings.value("k", 0).toInt());
  parameters_->setEngine(settings.value("engine", "cpu-bruteforce").toString());
  buildMenus();
  resize(1400, 900);
  restoreGeometry(settings.value("geometry").toByteArray());
  restoreState(settings.value("windowState").toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open points"), QSettings().value("lastDir").toString(),
        tr("Point files (*.csv *.txt *.npy *.ply *.vtk *.vtp *.bin);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
  });
  QMenu* samples = file->addMenu(tr("Open &Sample"));
  for (const QString& name : sample_names())
    samples->addAction(name, this, [this, name] { openSample(name); });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  refreshRecentMenu();
  file->addSeparator();
  file->addAction(tr("Save Screens&hot..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  &MainWindow::saveScreenshotAs);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (int mode = 0; mode < 4; ++mode)
    view->addAction(tr(kModeNames[mode]), QKeySequence(Qt::CTRL | (Qt::Key_1 + mode)), this,
                    [this, mode] { setViewMode(static_cast<ViewMode>(mode)); });
  view->addSeparator();
  view->addAction(tr("&Reset View"), QKeySequence(Qt::CTRL | Qt::Key_R), view_, &ProjectionView::resetCamera);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(tr("&Run Join"), QKeySequence(Qt::CTRL | Qt::Key_Return), this, &MainWindow::runJoin);
  run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, [this] {
    if (task_) task_->cancel();
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About Simjoin Studio"),
                       tr("Simjoin Studio: the epsilon-similarity join on CPUs and GPUs, "
                          "with views of the k-means partitions, replication and the eps-grid."));
  });
}

void MainWindow::setViewMode(ViewMode mode) {
  tabs_->setCurrentIndex(0);
  modes_->setCurrentIndex(static_cast<int>(mode));
  view_->setMode(mode);
}

void MainWindow::openFile(const QString& path) {
  const std::string file = path.toStdString();
  load(tr("Loading %1").arg(QFileInfo(path).fileName()),
       [file](RunControl& control) { return load_points(file, {}, &control); }, path);
}

void MainWindow::openSample(const QString& name) {
  load(tr("Loading sample %1").arg(name), [name](RunControl& control) { return load_sample(name, &control); },
       QString());
}

void MainWindow::load(const QString& title, std::function<PointSet(RunControl&)> loader, const QString& recent) {
  if (task_) return;
  auto points = std::make_shared<PointSet>();
  auto pca = std::make_shared<Pca>();
  task_ = new BackgroundTask(title, [points, pca, loader](RunControl& control) {
    *points = loader(control);
    require_finite(*points, points->source);
    if (!points->empty()) *pca = fit_pca(*points);
  }, this);
  connect(task_, &BackgroundTask::finished, this, [=, this](bool ok, bool cancelled, const QString& error) {
    task_->deleteLater();
    task_ = nullptr;
    if (ok && points->empty()) return showError(title, tr("The file holds no points."));
    if (!ok) {
      if (!cancelled) showError(title, error);
      return;
    }
    if (!recent.isEmpty()) addRecent(recent);
    setPoints(points, pca);
  });
}

void MainWindow::setPoints(std::shared_ptr<const PointSet> points, std::shared_ptr<const Pca> pca) {
  points_ = std::move(points);
  data_->display(*points_, pca.get());
  results_->clear();
  view_->setPoints(points_, pca);
  statusBar()->showMessage(tr("Loaded %1 points").arg(points_->size()), 5000);
  emit pointsLoaded();
}

void MainWindow::runJoin() {
  if (task_) return;
  if (!points_) return showError(tr("Run"), tr("Load points first."));
  Engine* engine = registry_.find(parameters_->engine().toStdString());
  if (!engine) return showError(tr("Run"), tr("No engine selected."));
  const JoinParams params = parameters_->params();
  auto result = std::make_shared<RunResult>();
  auto points = points_;
  task_ = new BackgroundTask(tr("Running %1").arg(parameters_->engine()),
                             [engine, params, result, points](RunControl& control) {
                               CountSink sink;
                               JoinInputs inputs;
                               inputs.a = points.get();
                               *result = run_engine(*engine, inputs, params, sink, control);
                             },
                             this);
  parameters_->setRunning(true);
  connect(task_, &BackgroundTask::finished, this, [=, this](bool ok, bool cancelled, const QString& error) {
    task_->deleteLater();
    task_ = nullptr;
    parameters_->setRunning(false);
    if (ok) {
      results_->display(*result);
      view_->setResult(result);
      statusBar()->showMessage(tr("%1 pairs in %2 s").arg(result->stats.pairs).arg(result->stats.seconds_total), 8000);
    } else if (cancelled) {
      statusBar()->showMessage(tr("Run cancelled"), 5000);
    } else {
      showError(tr("Run failed"), error);
    }
    emit runFinished(ok);
  });
}

void MainWindow::waitForTask() {
  if (task_) task_->wait();
}

void MainWindow::showError(const QString& what, const QString& message) {
  // Command-line use without a user: report on stderr instead of blocking on a dialog.
  if (qApp->property("unattended").toBool()) {
    qWarning("%s: %s", qPrintable(what), qPrintable(message));
    return;
  }
  QMessageBox::warning(this, what, message);
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
  for (const QString& path : files) recent_menu_->addAction(path, this, [this, path] { openFile(path); });
  recent_menu_->setEnabled(!files.isEmpty());
}

QImage MainWindow::screenshot() {
  // grab() draws child widgets; the OpenGL view is drawn from its own framebuffer on top.
  QImage image = grab().toImage();
  VtkViewWidget* gl = view_->vtkWidget();
  if (gl->isVisible()) {
    QPainter painter(&image);
    const QPoint origin = gl->mapTo(this, QPoint(0, 0));
    painter.drawImage(QRect(origin, gl->size()), gl->grabFramebuffer());
  }
  return image;
}

void MainWindow::saveScreenshotAs() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), "simjoin.png", tr("PNG (*.png)"));
  if (!path.isEmpty() && !screenshot().save(path)) showError(tr("Screenshot"), tr("Cannot write %1").arg(path));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue("geometry", saveGeometry());
  settings.setValue("windowState", saveState());
  settings.setValue("eps", parameters_->eps());
  settings.setValue("k", parameters_->k());
  settings.setValue("engine", parameters_->engine());
  if (task_) task_->cancel();
  event->accept();
}

}  // namespace simjoin::ui
