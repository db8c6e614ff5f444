#pragma once
// The main window: Data, Parameters and Results docks, the view tabs (2-D views and a Charts
// placeholder), menus, recent files, drag and drop, and the device status.
#include <memory>

#include <QMainWindow>
#include <QStringList>

#include "core/engine.hpp"
#include "core/pca.hpp"
#include "core/point_set.hpp"
#include "core/run_stats.hpp"
#include "ui/view_layers.hpp"

class QMenu;
class QTabBar;
class QTabWidget;

namespace simjoin::ui {

class BackgroundTask;
class DataPanel;
class ParametersPanel;
class ProjectionView;
class ResultsPanel;

struct DeviceSummary {
  QStringList gpu_names;   // one per usable GPU, with free memory
  QString status;          // status bar text: the GPUs, or "CPU only" and why
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  MainWindow(const EngineRegistry& registry, DeviceSummary devices, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loading and running happen in the background; these return at once.
  void openFile(const QString& path);
  void openSample(const QString& name);
  void runJoin();
  // Blocks, processing events, until the current load or run has finished.
  void waitForTask();

  void setViewMode(ViewMode mode);
  ParametersPanel* parameters() const { return parameters_; }
  ProjectionView* view() const { return view_; }
  ResultsPanel* results() const { return results_; }
  QTabWidget* tabs() const { return tabs_; }
  std::shared_ptr<const PointSet> points() const { return points_; }
  // Renders the whole window, the OpenGL view included.
  QImage screenshot();

 signals:
  void pointsLoaded();
  void runFinished(bool ok);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void load(const QString& title, std::function<PointSet(RunControl&)> loader, const QString& recent);
  void setPoints(std::shared_ptr<const PointSet> points, std::shared_ptr<const Pca> pca);
  void addRecent(const QString& path);
  void refreshRecentMenu();
  void saveScreenshotAs();
  void showError(const QString& what, const QString& message);

  const EngineRegistry& registry_;
  DataPanel* data_;
  ParametersPanel* parameters_;
  ResultsPanel* results_;
  ProjectionView* view_;
  QTabWidget* tabs_;
  QTabBar* modes_;
  QMenu* recent_menu_ = nullptr;
  BackgroundTask* task_ = nullptr;
  std::shared_ptr<const PointSet> points_;
};

}  // namespace simjoin::ui
