#pragma once
// The Sweep panel of the Charts tab: checked engines, eps values (from / to / steps, log or linear
// spacing) or k values, the metric, Start / Cancel; the sweep chart fills as each point finishes
// (timed as `simjoin bench` times, warm-up and repeats) and exports as PNG, SVG, PDF or CSV.
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "core/join/engine.hpp"
#include "ui/charts/sweep_chart.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace simjoin::ui {

class EpsSpinBox;

// `steps` values from `from` to `to` inclusive, evenly spaced on a log scale (from > 0: 0 has no
// logarithm) or linearly (from >= 0, eps = 0 joining the exact duplicates); throws Error(Usage) for a bad range.
std::vector<double> eps_steps(double from, double to, int steps, bool logarithmic);
// "4, 8,16" -> {4, 8, 16}; throws Error(Usage) naming the bad entry.
std::vector<int> parse_k_list(const QString& text);

class SweepPanel : public QWidget {
  Q_OBJECT

 public:
  // `base` gives the current join parameters (seed, device, eps or k when not swept).
  SweepPanel(const EngineRegistry& registry, std::function<JoinParams()> base, QWidget* parent = nullptr);

  void setPoints(std::shared_ptr<const PointSet> points);
  void setEngines(const QStringList& names);  // checks exactly these
  QStringList engines() const;
  // Throws Error(Usage) for a range eps_steps refuses.
  void setEpsRange(double from, double to, int steps, bool logarithmic);
  void setKValues(const QString& values);
  void setSweepK(bool sweep_k);  // k values instead of eps values
  void setMetric(SweepMetric metric);
  // The machine line of the chart's subtitle (core/report/machine_info.hpp's machine_line).
  void setMachine(const QString& machine) { machine_ = machine.toStdString(); }
  // The sweep the controls describe; throws Error(Usage) for bad values.
  SweepSpec spec() const;

  void start();
  void cancel();
  SweepRunner* runner() const { return runner_; }
  SweepChart* chart() const { return chart_; }

 private:
  void layOut();
  void connectControls();
  void updateControls();
  void report(const QString& message);
  // Names the engines of a k sweep that ignore k; empty when none does.
  QString ignoredKNote() const;

  const EngineRegistry& registry_;
  std::function<JoinParams()> base_;
  std::shared_ptr<const PointSet> points_;
  std::string machine_;
  SweepRunner* runner_;
  SweepChart* chart_;
  QListWidget* engines_;
  QComboBox* axis_;
  EpsSpinBox* eps_from_;
  EpsSpinBox* eps_to_;
  QSpinBox* eps_count_;
  QCheckBox* log_;
  QLineEdit* k_values_;
  QComboBox* metric_;
  QPushButton* start_;
  QPushButton* cancel_;
  QLabel* status_;
};

}  // namespace simjoin::ui
