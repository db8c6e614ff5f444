#include "ui/info_panels.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/eps_spin_box.hpp"
#include "ui/replication.hpp"

namespace simjoin::ui {

namespace {
QLabel* make_text() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  label->setWordWrap(true);
  return label;
}
}  // namespace

DataPanel::DataPanel(QWidget* parent) : QWidget(parent), text_(make_text()) {
  text_->setText(tr("No data loaded. Open a file (Ctrl+O), drop one here, or pick File > Open Sample."));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(text_);
  layout->addStretch();
}

void DataPanel::display(const PointSet& points, const Pca* pca, const EpsEstimate& estimate) {
  QString html = tr("<b>%1</b><br>n = %2, d = %3<br>")
                     .arg(QString::fromStdString(points.source).toHtmlEscaped())
                     .arg(points.size())
                     .arg(points.dims());
  html += tr("suggested eps: %1 (median distance to the 10th neighbour)<br>diameter: %2<br>")
              .arg(format_eps(estimate.eps), format_eps(round_significant(estimate.diameter, 4)));
  const Bounds64 bounds = compute_bounds(points);
  html += tr("<table><tr><th>dim</th><th>min</th><th>max</th><th>PCA var.</th></tr>");
  for (std::size_t j = 0; j < points.dims() && j < 16; ++j)
    html += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                .arg(j)
                .arg(bounds.low[j], 0, 'g', 5)
                .arg(bounds.high[j], 0, 'g', 5)
                .arg(pca ? QString("%1%").arg(100 * pca->explained(j), 0, 'f', 1) : QString("-"));
  html += "</table>";
  if (points.dims() > 16) html += tr("(%1 more dimensions)").arg(points.dims() - 16);
  if (pca && pca->sample_size < points.size())
    html += tr("<br>PCA fitted on a sample of %1 points").arg(pca->sample_size);
  for (const auto& warning : points.warnings)
    html += "<br><i>" + QString::fromStdString(warning).toHtmlEscaped() + "</i>";
  text_->setText(html);
}

ResultsPanel::ResultsPanel(QWidget* parent)
    : QWidget(parent), text_(make_text()), table_(new QTableWidget(0, 3)) {
  table_->setHorizontalHeaderLabels({tr("own"), tr("received"), tr("sent")});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(text_);
  layout->addWidget(table_, 1);
  clear();
}

void ResultsPanel::clear() {
  text_->setText(tr("No run yet."));
  table_->setRowCount(0);
}

void ResultsPanel::display(const RunResult& result) {
  const RunStats& s = result.stats;
  QString html = tr("<b>%1</b> on %2<br>pairs: %3<br>total: %4 s<br>")
                     .arg(QString::fromStdString(s.engine), QString::fromStdString(s.device))
                     .arg(s.pairs)
                     .arg(s.seconds_total, 0, 'g', 4);
  for (const auto& phase : s.phases)
    html += QString("&nbsp;&nbsp;%1: %2 s<br>").arg(QString::fromStdString(phase.name)).arg(phase.seconds, 0, 'g', 4);
  if (s.compared_pairs) html += tr("compared pairs: %1 (ratio %2)<br>").arg(s.compared_pairs).arg(s.compared_ratio(), 0, 'g', 4);
  if (s.replicated_points) html += tr("replicated points: %1<br>").arg(s.replicated_points);
  for (const auto& note : s.notes) html += "<i>" + QString::fromStdString(note).toHtmlEscaped() + "</i><br>";
  text_->setText(html);

  table_->setRowCount(0);
  if (!result.partitions) return;
  const auto counts = replication_counts(*result.partitions);
  table_->setRowCount(static_cast<int>(counts.size()));
  for (int p = 0; p < static_cast<int>(counts.size()); ++p) {
    table_->setVerticalHeaderItem(p, new QTableWidgetItem(QString::number(p)));
    const std::uint64_t values[3] = {counts[p].own, counts[p].received, counts[p].sent};
    for (int c = 0; c < 3; ++c) table_->setItem(p, c, new QTableWidgetItem(QString::number(values[c])));
  }
}

}  // namespace simjoin::ui
