#pragma once
// The window as the Step through tab and the lessons use it: its points and parameters, loading a
// sample, running a join and waiting for it, the view, and a place for a dock. MainWindow implements
// it; the tab and the lessons depend on this interface, never on MainWindow.
#include <functional>
#include <memory>

#include <QMetaObject>
#include <QString>

#include "core/points/point_set.hpp"
#include "ui/run/run_controller.hpp"
#include "ui/views/view_modes.hpp"

class QMainWindow;
class QObject;

namespace simjoin::ui {

class ParametersPanel;
class ProjectionView;

class Workbench {
 public:
  virtual std::shared_ptr<const PointSet> points() const = 0;
  virtual ParametersPanel* parameters() const = 0;
  virtual ProjectionView* view() const = 0;
  // The run shown in the views, null before the first.
  virtual RunRecordPtr currentRun() const = 0;
  // Loading and running happen in the background; these return at once, and waitForTask blocks,
  // processing events, until they have finished.
  virtual void openSample(const QString& name) = 0;
  virtual void runJoin() = 0;
  virtual void waitForTask() = 0;
  virtual void setViewMode(ViewMode mode) = 0;
  // Calls `changed` (in `context`'s thread, while it lives) whenever new points are shown.
  virtual QMetaObject::Connection onPointsLoaded(QObject* context, std::function<void()> changed) = 0;
  // The window whose dock area a lesson's panel joins.
  virtual QMainWindow& dockArea() = 0;

 protected:
  ~Workbench() = default;
};

}  // namespace simjoin::ui
