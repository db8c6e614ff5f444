#include "ui/panels/run_compare_dialog.hpp"

#include <algorithm>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>

#include "ui/charts/interactive_chart_view.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/run/run_history_model.hpp"

namespace simjoin::ui {

namespace {
constexpr int kMaxTableWidth = 900;
}  // namespace

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
  table->resizeColumnsToContents();
  // The table keeps the width of all its columns (up to kMaxTableWidth, past which it scrolls), so
  // that the splitter never cuts runs off.
  const int table_width = table->verticalHeader()->sizeHint().width() + table->horizontalHeader()->length() +
                          2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
  table->setMinimumWidth(std::min(table_width, kMaxTableWidth));
  auto* splitter = new QSplitter;
  splitter->addWidget(table);
  splitter->addWidget(new InteractiveChartView(chart_));  // the view owns the chart
  splitter->setStretchFactor(1, 1);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(splitter);
  resize(1200, 600);
}

}  // namespace simjoin::ui
