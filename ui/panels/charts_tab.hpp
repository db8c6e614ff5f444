#pragma once
// The Charts tab: the Sweep panel above the time per phase of the run shown in the views, each
// chart titled with the data, parameters, engine and machine.
#include <QSplitter>

#include <functional>

#include "core/join/engine.hpp"
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
  // The machine named in the charts' subtitles (core/report/machine_info.hpp's machine_line).
  void setMachine(const QString& machine);
  PhaseChart* phaseChart() const { return phases_; }
  SweepPanel* sweep() const { return sweep_; }
  // The chart --export-chart writes: the sweep's once it has points, else the run's phases.
  QChart* currentChart() const;

 private:
  PhaseChart* phases_;
  SweepPanel* sweep_;
  QString machine_;
};

}  // namespace simjoin::ui
