#pragma once
// The Charts tab: the Sweep panel above the time per phase of the run shown in the views.
#include <QSplitter>

#include <functional>

#include "core/engine.hpp"
#include "ui/run/run_controller.hpp"

class QChart;

namespace simjoin::ui {

class PhaseChart;
class SweepPanel;

class ChartsTab : public QSplitter {
  Q_OBJECT

 public:
  ChartsTab(const EngineRegistry& registry, std::function<JoinParams()> base, QWidget* parent = nullptr);

  void showRun(const RunRecordPtr& run);  // null clears
  PhaseChart* phaseChart() const { return phases_; }
  SweepPanel* sweep() const { return sweep_; }
  // The chart --export-chart writes: the sweep's once it has points, else the run's phases.
  QChart* currentChart() const;

 private:
  PhaseChart* phases_;
  SweepPanel* sweep_;
};

}  // namespace simjoin::ui
