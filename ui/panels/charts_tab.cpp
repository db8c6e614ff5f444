#include "ui/panels/charts_tab.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/charts/chart_caption.hpp"
#include "ui/charts/chart_export_button.hpp"
#include "ui/charts/interactive_chart_view.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/phase_csv.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/panels/sweep_panel.hpp"

namespace simjoin::ui {

ChartsTab::ChartsTab(const EngineRegistry& registry, std::function<JoinParams()> base, QWidget* parent)
    : QSplitter(Qt::Vertical, parent), phases_(new PhaseChart), sweep_(new SweepPanel(registry, std::move(base))) {
  auto* current = new QWidget;
  auto* header = new QHBoxLayout;
  header->addWidget(new QLabel(tr("<b>Current run</b>")), 1);
  header->addWidget(chart_export_button(
      phases_, [this](const std::string& path) { write_phase_csv(*phases_, path); }, current));
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

void ChartsTab::setMachine(const QString& machine) {
  machine_ = machine;
  sweep_->setMachine(machine);
}

void ChartsTab::showRun(const RunRecordPtr& run) {
  const QString title = tr("Time per phase");
  if (!run) {
    phases_->setRuns({});
    phases_->setTitle(title);
    return;
  }
  phases_->setRuns({phase_bar(*run)});
  const RunRequest& request = run->request;
  const RunStats& stats = run->result.stats;
  QStringList lines = {data_description(*request.a, request.b.get()) +
                           QString("; \u03b5 = %1; ").arg(request.params.eps, 0, 'g', 6) +
                           (run->result.partitions ? k_description(stats.k) : tr("k not used")),
                       tr("engine %1; one run").arg(QString::fromStdString(stats.engine))};
  if (!machine_.isEmpty()) lines << machine_subtitle(machine_);
  set_chart_caption(*phases_, title, lines);
}

}  // namespace simjoin::ui
