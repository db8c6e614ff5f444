#include "ui/panels/info_panels.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/points/pca_axes.hpp"
#include "ui/panels/eps_spin_box.hpp"
#include "ui/views/replication.hpp"
#include "ui/views/stale_marker.hpp"

namespace simjoin::ui {

namespace {
QLabel* make_text() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  label->setWordWrap(true);
  return label;
}

// A read-only table whose cells never wrap: each column is as wide as its widest entry.
QTableWidget* make_table(const QStringList& headers) {
  auto* table = new QTableWidget(0, int(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setWordWrap(false);
  table->verticalHeader()->hide();
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

// Cells 1 to last_number hold numbers, aligned right so that their digits line up.
void set_row(QTableWidget* table, int row, const QStringList& cells, int last_number) {
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = new QTableWidgetItem(cells[c]);
    if (c > 0 && c <= last_number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, c, item);
  }
}

// Shows up to kVisibleRows rows without scrolling; longer tables scroll.
constexpr int kVisibleRows = 6;

void fit_height(QTableWidget* table) {
  table->resizeColumnsToContents();
  const int rows = std::min(table->rowCount(), kVisibleRows);
  const int scroll_bar = table->horizontalScrollBar()->sizeHint().height();
  table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() +
                          rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth() + scroll_bar);
}

QString number(double value) { return QString::number(value, 'g', 6); }
}  // namespace

ColumnSummary summarise_columns(const PointSet& points) {
  ColumnSummary summary{compute_bounds(points), std::vector<double>(points.dims(), 0.0)};
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = 0; j < points.dims(); ++j) summary.means[j] += points.point(i)[j];
  for (double& sum : summary.means) sum /= double(std::max<std::size_t>(points.size(), 1));
  return summary;
}

DataPanel::DataPanel(QWidget* parent)
    : QWidget(parent),
      text_(make_text()),
      columns_(make_table({tr("column"), tr("min"), tr("max"), tr("mean")})),
      components_(make_table({tr("axis"), tr("variance"), tr("loadings")})) {
  text_->setText(tr("No data loaded. Open a file (Ctrl+O), drop one here, or pick File > Open Sample."));
  components_->setToolTip(
      tr("Each principal component's share of the variance, and the weights of the "
         "input columns that make it (signed: the largest is positive)"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(text_);
  layout->addWidget(columns_, 1);
  layout->addWidget(components_, 1);
}

void DataPanel::display(const PointSet& points, const Pca* pca, const EpsEstimate& estimate,
                        const ColumnSummary& columns) {
  QString html = tr("<b>%1</b><br>n = %2, d = %3<br>")
                     .arg(QString::fromStdString(points.source).toHtmlEscaped())
                     .arg(points.size())
                     .arg(points.dims());
  html += tr("suggested eps: %1 (median distance to the 10th neighbour)<br>diameter: %2<br>")
              .arg(format_eps(estimate.eps), format_eps(round_significant(estimate.diameter, 4)));
  const Bounds64& bounds = columns.bounds;
  const std::vector<double>& means = columns.means;
  columns_->setRowCount(int(points.dims()));
  for (std::size_t j = 0; j < points.dims(); ++j)
    set_row(columns_, int(j),
            {QString::fromStdString(column_name(points, j)), number(bounds.low[j]), number(bounds.high[j]),
             number(means[j])},
            3);
  components_->setRowCount(pca ? int(pca->dims) : 0);
  for (std::size_t c = 0; pca && c < pca->dims; ++c)
    set_row(components_, int(c),
            {tr("PC%1").arg(c + 1), QString("%1 %").arg(100 * pca->explained(c), 0, 'f', 1),
             QString::fromStdString(describe_loadings(*pca, c, points))},
            1);
  fit_height(columns_);
  fit_height(components_);
  if (pca && pca->sample_size < points.size())
    html += tr("<br>PCA fitted on a sample of %1 points").arg(pca->sample_size);
  for (const auto& warning : points.warnings)
    html += "<br><i>" + QString::fromStdString(warning).toHtmlEscaped() + "</i>";
  text_->setText(html);
}

ResultsPanel::ResultsPanel(QWidget* parent)
    : QWidget(parent),
      stale_(new StaleMarker),
      text_(make_text()),
      table_(make_table({tr("partition"), tr("own"), tr("received"), tr("sent")})) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(stale_);
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
  if (s.compared_pairs)
    html += tr("compared pairs: %1 (ratio %2)<br>").arg(s.compared_pairs).arg(s.compared_ratio(), 0, 'g', 4);
  if (s.replicated_points) html += tr("replicated points: %1<br>").arg(s.replicated_points);
  for (const auto& note : s.notes) html += "<i>" + QString::fromStdString(note).toHtmlEscaped() + "</i><br>";
  text_->setText(html);

  table_->setRowCount(0);
  if (!result.partitions) return;
  const auto counts = replication_counts(*result.partitions);
  table_->setRowCount(static_cast<int>(counts.size()));
  for (int p = 0; p < static_cast<int>(counts.size()); ++p)
    set_row(table_, p,
            {QString::number(p), QString::number(counts[p].own), QString::number(counts[p].received),
             QString::number(counts[p].sent)},
            3);
  table_->resizeColumnsToContents();
}

}  // namespace simjoin::ui
