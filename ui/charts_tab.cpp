#include "ui/charts_tab.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/chart_export_button.hpp"
#include "ui/charts/interactive_chart_view.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/sweep_panel.hpp"

namespace simjoin::ui {

ChartsTab::ChartsTab(const EngineRegistry& registry, std::function<JoinParams()> base, QWidget* parent)
    : QSplitter(Qt::Vertical, parent), phases_(new PhaseChart), sweep_(new SweepPanel(registry, std::move(base))) {
  auto* current = new QWidget;
  auto* header = new QHBoxLayout;
  header->addWidget(new QLabel(tr("<b>Current run</b>")), 1);
  header->addWidget(chart_export_button(phases_, current));
  auto* layout = new QVBoxLayout(current);
  layout->addLayout(header);
  layout->addWidget(new InteractiveChartView(phases_), 1);  // the view owns the chart
  addWidget(sweep_);
  addWidget(current);
  // The phase bars need room for their axis labels: about 55 : 45.
  setSizes({550, 450});
}

QChart* ChartsTab::currentChart() const {
  if (sweep_->chart()->points().empty()) return phases_;
  return sweep_->chart();
}

void ChartsTab::showRun(const RunRecordPtr& run) {
  if (run)
    phases_->setRuns({phase_bar(*run)});
  else
    phases_->setRuns({});
}

}  // namespace simjoin::ui
