#include "ui/panels/sweep_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "core/base/error.hpp"
#include "core/join/eps_rule.hpp"
#include "ui/charts/chart_export_button.hpp"
#include "ui/charts/interactive_chart_view.hpp"
#include "ui/charts/sweep_csv.hpp"
#include "ui/panels/eps_spin_box.hpp"

namespace simjoin::ui {

namespace {
constexpr SweepMetric kMetricChoices[] = {SweepMetric::Seconds,          SweepMetric::Pairs,
                                          SweepMetric::ReplicatedPoints, SweepMetric::ComparedRatio,
                                          SweepMetric::LargestPartition, SweepMetric::SmallestPartition};
// Checked at start: a grid and a partitioning engine show the thesis' contrast at once.
const QStringList kDefaultEngines = {"cpu-grid", "cpu-kmeans"};
}  // namespace

std::vector<double> eps_steps(double from, double to, int steps, bool logarithmic) {
  if (steps < 1) fail(ErrorKind::Usage, "the eps sweep needs at least one step");
  if (!(eps_allowed(from) && to >= from && std::isfinite(to)))
    fail(ErrorKind::Usage,
         "the eps range needs 0 <= from <= to, not " + std::to_string(from) + " to " + std::to_string(to));
  if (logarithmic && !(from > 0))
    fail(ErrorKind::Usage,
         "a log-spaced eps range needs from > 0 (0 has no logarithm): start above 0, or space linearly");
  std::vector<double> values;
  for (int s = 0; s < steps; ++s) {
    const double t = steps == 1 ? 0.0 : double(s) / (steps - 1);
    values.push_back(logarithmic ? from * std::pow(to / from, t) : from + (to - from) * t);
  }
  return values;
}

std::vector<int> parse_k_list(const QString& text) {
  std::vector<int> values;
  for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
    bool ok = false;
    const int k = part.trimmed().toInt(&ok);
    if (!ok || k < 0) fail(ErrorKind::Usage, "k values: '" + part.trimmed().toStdString() + "' is not an integer >= 0");
    values.push_back(k);
  }
  if (values.empty()) fail(ErrorKind::Usage, "k values: give at least one, e.g. 4,8,16");
  return values;
}

SweepPanel::SweepPanel(const EngineRegistry& registry, std::function<JoinParams()> base, QWidget* parent)
    : QWidget(parent),
      registry_(registry),
      base_(std::move(base)),
      runner_(new SweepRunner(registry, this)),
      chart_(new SweepChart),
      engines_(new QListWidget),
      axis_(new QComboBox),
      eps_from_(new EpsSpinBox),
      eps_to_(new EpsSpinBox),
      eps_count_(new QSpinBox),
      log_(new QCheckBox(tr("log spacing"))),
      k_values_(new QLineEdit("4,8,16,32")),
      metric_(new QComboBox),
      start_(new QPushButton(tr("Start sweep"))),
      cancel_(new QPushButton(tr("Cancel"))),
      status_(new QLabel(tr("Load points, check engines, then Start sweep."))) {
  for (const auto& engine : registry.engines()) {
    auto* item = new QListWidgetItem(QString::fromStdString(engine->name()), engines_);
    const Availability availability = engine->availability();
    item->setFlags(availability.available ? (Qt::ItemIsEnabled | Qt::ItemIsUserCheckable) : Qt::NoItemFlags);
    item->setCheckState(kDefaultEngines.contains(item->text()) && availability.available ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(availability.available ? QString::fromStdString(engine->description())
                                            : tr("Unavailable: %1").arg(QString::fromStdString(availability.reason)));
  }
  engines_->setMaximumHeight(140);
  axis_->addItem(tr("eps values"));
  axis_->addItem(tr("k values"));
  eps_from_->setValue(0.05);
  eps_to_->setValue(0.8);
  eps_count_->setRange(1, 100);
  eps_count_->setValue(5);
  log_->setChecked(true);
  k_values_->setToolTip(tr("Comma-separated k values (eps stays at the Parameters value)"));
  for (SweepMetric metric : kMetricChoices) metric_->addItem(metric_title(metric), int(metric));
  cancel_->setEnabled(false);

  layOut();
  connectControls();
  updateControls();
}

// The controls in a column on the left, the chart beside them.
void SweepPanel::layOut() {
  auto* eps_range = new QHBoxLayout;
  eps_range->addWidget(eps_from_);
  eps_range->addWidget(new QLabel(tr("to")));
  eps_range->addWidget(eps_to_);
  auto* eps_spacing = new QHBoxLayout;
  eps_spacing->addWidget(eps_count_);
  eps_spacing->addWidget(log_);
  auto* form = new QFormLayout;
  form->addRow(tr("Engines"), engines_);
  form->addRow(tr("Sweep over"), axis_);
  form->addRow(tr("eps from"), eps_range);
  form->addRow(tr("eps steps"), eps_spacing);
  form->addRow(tr("k values"), k_values_);
  form->addRow(tr("Metric"), metric_);
  auto* export_button = chart_export_button(
      chart_, [this](const std::string& path) { write_sweep_csv(chart_->points(), path); }, this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(cancel_);
  buttons->addStretch();
  buttons->addWidget(export_button);
  status_->setWordWrap(true);
  auto* controls = new QVBoxLayout;
  controls->addLayout(form);
  controls->addLayout(buttons);
  controls->addWidget(status_);
  controls->addStretch();
  auto* layout = new QHBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(new InteractiveChartView(chart_), 1);  // the view owns the chart
}

// The controls start and cancel sweeps; the runner's points reach the chart as they come.
void SweepPanel::connectControls() {
  connect(axis_, &QComboBox::currentIndexChanged, this, &SweepPanel::updateControls);
  connect(metric_, &QComboBox::currentIndexChanged, this,
          [this] { chart_->setMetric(SweepMetric(metric_->currentData().toInt())); });
  connect(start_, &QPushButton::clicked, this, &SweepPanel::start);
  connect(cancel_, &QPushButton::clicked, this, &SweepPanel::cancel);
  connect(runner_, &SweepRunner::pointReady, this, [this](const SweepPoint& point, int index, int total) {
    chart_->addPoint(point);
    status_->setText(tr("%1 of %2 points").arg(index + 1).arg(total));
  });
  connect(runner_, &SweepRunner::finished, this,
          [this](int points) { report(tr("Done: %1 points.%2").arg(points).arg(ignoredKNote())); });
  connect(runner_, &SweepRunner::cancelled, this, [this] { report(tr("Sweep cancelled.")); });
  connect(runner_, &SweepRunner::failed, this,
          [this](const QString& message) { report(tr("Failed: %1").arg(message)); });
}

void SweepPanel::setPoints(std::shared_ptr<const PointSet> points) {
  runner_->cancel();
  points_ = std::move(points);
  updateControls();
}

void SweepPanel::setEngines(const QStringList& names) {
  for (int row = 0; row < engines_->count(); ++row) {
    QListWidgetItem* item = engines_->item(row);
    item->setCheckState(names.contains(item->text()) && (item->flags() & Qt::ItemIsEnabled) ? Qt::Checked
                                                                                            : Qt::Unchecked);
  }
}

QStringList SweepPanel::engines() const {
  QStringList names;
  for (int row = 0; row < engines_->count(); ++row)
    if (engines_->item(row)->checkState() == Qt::Checked) names << engines_->item(row)->text();
  return names;
}

void SweepPanel::setEpsRange(double from, double to, int steps, bool logarithmic) {
  eps_steps(from, to, steps, logarithmic);  // throws for a range the sweep would refuse
  eps_from_->setValue(from);
  eps_to_->setValue(to);
  eps_count_->setValue(steps);
  log_->setChecked(logarithmic);
}

void SweepPanel::setKValues(const QString& values) { k_values_->setText(values); }
void SweepPanel::setSweepK(bool sweep_k) { axis_->setCurrentIndex(sweep_k ? 1 : 0); }
void SweepPanel::setMetric(SweepMetric metric) { metric_->setCurrentIndex(metric_->findData(int(metric))); }

SweepSpec SweepPanel::spec() const {
  SweepSpec spec;
  for (const QString& name : engines()) spec.engines.push_back(name.toStdString());
  spec.a = points_;
  spec.base = base_();
  spec.machine = machine_;
  if (axis_->currentIndex() == 1) {
    spec.eps_values = {spec.base.eps};
    spec.k_values = parse_k_list(k_values_->text());
  } else {
    spec.eps_values = eps_steps(eps_from_->value(), eps_to_->value(), eps_count_->value(), log_->isChecked());
  }
  return spec.normalized();
}

void SweepPanel::start() {
  SweepSpec sweep;
  try {
    sweep = spec();
  } catch (const Error& error) {
    status_->setText(QString::fromStdString(error.what()));
    return;
  }
  chart_->begin(sweep);
  chart_->setMetric(SweepMetric(metric_->currentData().toInt()));
  status_->setText(tr("0 of %1 points").arg(sweep.size()));
  runner_->start(sweep);
  updateControls();
}

void SweepPanel::cancel() { runner_->cancel(); }

QString SweepPanel::ignoredKNote() const {
  QStringList engines;
  for (const SweepPoint& point : chart_->points())
    if (!point.uses_k && !engines.contains(QString::fromStdString(point.engine)))
      engines << QString::fromStdString(point.engine);
  if (engines.isEmpty() || chart_->xAxis() != SweepAxis::K) return {};
  return tr(" %1 ignore k: one run each, drawn as a dashed level line.").arg(engines.join(", "));
}

void SweepPanel::report(const QString& message) {
  status_->setText(message);
  updateControls();
}

void SweepPanel::updateControls() {
  const bool sweep_k = axis_->currentIndex() == 1;
  for (QWidget* widget : std::initializer_list<QWidget*>{eps_from_, eps_to_, eps_count_, log_})
    widget->setEnabled(!sweep_k);
  k_values_->setEnabled(sweep_k);
  start_->setEnabled(points_ && !runner_->running());
  cancel_->setEnabled(runner_->running());
}

}  // namespace simjoin::ui
