#include "ui/run_compare_dialog.hpp"

#include <QHeaderView>
#include <QHBoxLayout>
#include <QSplitter>
#include <QTableView>

#include "ui/charts/interactive_chart_view.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/run/run_history_model.hpp"

namespace simjoin::ui {

RunCompareDialog::RunCompareDialog(std::vector<RunRecordPtr> runs, QWidget* parent)
    : QDialog(parent), model_(new RunCompareModel(this)), chart_(new PhaseChart) {
  setWindowTitle(tr("Compare runs"));
  setObjectName("runCompare");
  std::vector<PhaseBar> bars;
  for (const RunRecordPtr& run : runs) bars.push_back(phase_bar(*run));
  chart_->setRuns(std::move(bars));
  model_->setRuns(std::move(runs));

  auto* table = new QTableView;
  table->setModel(model_);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* splitter = new QSplitter;
  splitter->addWidget(table);
  splitter->addWidget(new InteractiveChartView(chart_));  // the view owns the chart
  splitter->setStretchFactor(1, 1);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(splitter);
  resize(1200, 600);
}

}  // namespace simjoin::ui
