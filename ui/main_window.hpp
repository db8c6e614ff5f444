#pragma once
// The main window: Data, Parameters, Results and Runs docks, the view tabs (2-D views and Charts), menus,
// recent files, drag and drop, and the device status. Joins run through a RunController (one run
// path: Run button, auto-run and the CPU fallback), each asking first when its result is expected to
// be large; loading files runs as a BackgroundTask. Each data set brings its own parameters (the eps
// its scale suggests, k automatic); errors are shown over the window, which stays.
#include <functional>
#include <memory>

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include "core/base/error.hpp"
#include "core/join/engine.hpp"
#include "core/join/run_stats.hpp"
#include "core/points/eps_estimate.hpp"
#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"
#include "ui/export/image_size.hpp"
#include "ui/panels/info_panels.hpp"
#include "ui/run/run_controller.hpp"
#include "ui/session.hpp"
#include "ui/views/view_layers.hpp"
#include "ui/workbench/workbench.hpp"

class QMenu;
class QMessageBox;
class QTabBar;
class QTabWidget;

namespace simjoin::ui {

class BackgroundTask;
class ChartsTab;
class DataPanel;
class ParametersPanel;
class ProjectionView;
class ResultsPanel;
class RunHistoryModel;
class RunStatus;
class RunsPanel;

enum class RunExport { Pairs, NeighborsCsr, StatsJson, LabeledVtp };

// Points as the window shows them: with their PCA and the eps their scale suggests.
struct LoadedPoints {
  std::shared_ptr<const PointSet> points;
  std::shared_ptr<const Pca> pca;
  EpsEstimate estimate;
  ColumnSummary columns;
};

struct DeviceSummary {
  QStringList gpu_names;  // one per usable GPU, with free memory
  QString status;         // status bar text: the GPUs, or "CPU only" and why
  QString machine;        // CPU and GPUs for chart subtitles (core/report/machine_info.hpp's machine_line)
};

class MainWindow : public QMainWindow, public Workbench {
  Q_OBJECT

 public:
  MainWindow(const EngineRegistry& registry, DeviceSummary devices, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loading and running happen in the background; these return at once. A file opened by a person in
  // the window (`remember`) joins the recent files; one named on the command line does not.
  void openFile(const QString& path, bool remember = false);
  void openSample(const QString& name) override;
  void runJoin() override;
  // Switches to the best CPU engine and runs again (offered when a GPU run fails).
  void runOnCpu();
  // Blocks, processing events, until the current load or run has finished (or waits for the
  // confirmation of a large result).
  void waitForTask() override;
  // Runs expected to return more pairs than this ask first (0: never); unattended, they are refused.
  void setConfirmAbovePairs(double pairs) { confirm_above_pairs_ = pairs; }
  double confirmAbovePairs() const { return confirm_above_pairs_; }

  void setViewMode(ViewMode mode) override;
  // The partitions' colours (View > Colour-blind-safe palette, saved when a person chooses it there),
  // and where the choice came from, shown in the menu entry's tooltip.
  void setPalette(PaletteKind palette, const QString& source = {});
  ParametersPanel* parameters() const override { return parameters_; }
  ProjectionView* view() const override { return view_; }
  ResultsPanel* results() const { return results_; }
  QTabWidget* tabs() const { return tabs_; }
  RunController* runController() const { return runs_; }
  RunStatus* runStatus() const { return run_status_; }
  RunHistoryModel* history() const { return history_; }
  RunsPanel* runsPanel() const { return runs_panel_; }
  ChartsTab* charts() const { return charts_; }
  // The run exports write: the one selected in the Runs dock, else the one shown.
  RunRecordPtr selectedRun() const;
  // Exports in the background (waitForTask waits); exportFinished follows. For NeighborsCsr `path`
  // is the prefix.
  void exportRun(RunExport kind, const QString& path);
  // The view at `size` (default: as on screen, at the default dpi).
  void exportView(const QString& path, std::optional<ImageSize> size = std::nullopt);
  // Shows a finished run in the views and docks (its points too, with its eps and k, when they are
  // not the loaded ones: then once a worker has analysed them).
  void showRun(RunRecordPtr record);
  // The run shown in the views, null before the first.
  RunRecordPtr currentRun() const override { return current_; }
  std::shared_ptr<const PointSet> points() const override { return points_; }
  QMetaObject::Connection onPointsLoaded(QObject* context, std::function<void()> changed) override {
    return connect(this, &MainWindow::pointsLoaded, context, std::move(changed));
  }
  QMainWindow& dockArea() override { return *this; }
  // Renders the whole window, the OpenGL view included.
  QImage screenshot();
  // The picked point's neighbours within the current eps, nearest first, as CSV (pick_neighbours.hpp),
  // written on a worker (waitForTask waits; exportFinished follows).
  void exportPickNeighbours(const QString& path);
  // What the window shows as a session (session.hpp); its data is empty before points are loaded.
  Session session() const;
  // Opens the session's data, then its parameters, view, palette and pick; blocks, processing events,
  // until the data is loaded. False, with the error shown, when the file or its data cannot be read.
  bool openSession(const QString& path);

 signals:
  void pointsLoaded();
  // A file or sample could not be loaded; the window keeps the points it had.
  void loadFailed(simjoin::ErrorKind kind, const QString& message);
  void runFinished(bool ok);
  void exportFinished(bool ok);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildDocks(const DeviceSummary& devices);
  void connectControls();
  void buildMenus();
  void buildExportMenu(QMenu* file);
  void buildSessionMenu(QMenu* file);
  void showAbout();
  // The session's parameters, view, palette and pick, once its data is loaded.
  void applySession(const Session& session, const QString& source);
  void runInBackground(const QString& title, std::function<void(RunControl&)> job);
  void load(const QString& title, std::function<PointSet(RunControl&)> loader, const QString& recent,
            const QString& data_path);
  // Analyses the points `source` gives (PCA, the eps estimate, the columns) on a worker, then hands
  // them to `then` on the GUI thread; a failure is shown and signalled as loadFailed.
  void analyseInBackground(const QString& title, std::function<std::shared_ptr<const PointSet>(RunControl&)> source,
                           std::function<void(const LoadedPoints&)> then);
  // Shows a run of the loaded points.
  void displayRun(RunRecordPtr record);
  // Shows new points with the given parameters (a data set never inherits another's eps).
  void setPoints(const LoadedPoints& loaded, double eps, int k, const QString& source);
  // The saved engine and palette, or the defaults, with where each came from.
  void restoreSettings();
  void addRecent(const QString& path);
  void refreshRecentMenu();
  void saveScreenshotAs();
  void showError(const QString& what, const QString& message);
  RunRequest currentRequest() const;
  void onRunFinished(RunRecordPtr record);
  void onRunFailed(const RunFailure& failure);
  void onRunNeedsConfirmation(double pairs);
  // Marks the views, Results and the Runs table stale when the run shown no longer matches the
  // parameters or the run after it was cancelled.
  void updateStale();

  const EngineRegistry& registry_;
  DataPanel* data_;
  ParametersPanel* parameters_;
  ResultsPanel* results_;
  ProjectionView* view_;
  QTabWidget* tabs_;
  QTabBar* modes_;
  ChartsTab* charts_;
  QMenu* recent_menu_ = nullptr;
  QAction* colorblind_ = nullptr;
  BackgroundTask* task_ = nullptr;  // loading a file or exporting
  RunController* runs_;
  RunStatus* run_status_;
  RunHistoryModel* history_;
  RunsPanel* runs_panel_;
  std::shared_ptr<const PointSet> points_;
  QString data_path_;  // the loaded points' file, or "sample:NAME", for sessions
  RunRecordPtr current_;
  bool cancelled_since_shown_ = false;
  double confirm_above_pairs_ = 1e8;
  QPointer<QMessageBox> confirm_box_;  // the open question about a large result
};

}  // namespace simjoin::ui
