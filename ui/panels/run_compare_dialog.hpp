#pragma once
// Selected runs side by side: the comparison table (one column per run) next to their per-phase
// time bars.
#include <QDialog>

#include <vector>

#include "ui/run/run_controller.hpp"

namespace simjoin::ui {

class PhaseChart;
class RunCompareModel;

class RunCompareDialog : public QDialog {
  Q_OBJECT

 public:
  RunCompareDialog(std::vector<RunRecordPtr> runs, QWidget* parent = nullptr);
  RunCompareModel* model() const { return model_; }
  PhaseChart* chart() const { return chart_; }

 private:
  RunCompareModel* model_;
  PhaseChart* chart_;
};

}  // namespace simjoin::ui
