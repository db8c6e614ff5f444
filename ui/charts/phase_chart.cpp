#include "ui/charts/phase_chart.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QStackedBarSeries>
#include <QToolTip>

#include <algorithm>

#include "ui/charts/chart_axes.hpp"

namespace simjoin::ui {

namespace {
const QString kOther = "other";

// Time outside the named phases, ignoring rounding noise.
double other_seconds(const RunStats& stats) {
  double named = 0;
  for (const PhaseTime& phase : stats.phases) named += phase.seconds;
  const double rest = stats.seconds_total - named;
  return rest > 1e-3 * stats.seconds_total ? rest : 0.0;
}
}  // namespace

PhaseBar phase_bar(const RunRecord& run) {
  return {QString("#%1 %2").arg(run.id).arg(QString::fromStdString(run.result.stats.engine)), run.result.stats};
}

PhaseChart::PhaseChart(QGraphicsItem* parent) : QChart(parent) {
  setTitle(tr("Time per phase"));
  legend()->setAlignment(Qt::AlignBottom);
}

void PhaseChart::setRuns(std::vector<PhaseBar> bars) {
  bars_ = std::move(bars);
  phases_.clear();
  bool any_other = false;
  for (const PhaseBar& bar : bars_) {
    for (const PhaseTime& phase : bar.stats.phases) {
      const QString name = QString::fromStdString(phase.name);
      if (std::find(phases_.begin(), phases_.end(), name) == phases_.end()) phases_.push_back(name);
    }
    any_other = any_other || other_seconds(bar.stats) > 0;
  }
  if (any_other) phases_.push_back(kOther);
  rebuild();
}

double PhaseChart::seconds(std::size_t bar, const QString& phase) const {
  const RunStats& stats = bars_.at(bar).stats;
  return phase == kOther ? other_seconds(stats) : stats.phase_seconds(phase.toStdString());
}

void PhaseChart::setPhaseHidden(const QString& phase, bool hidden) {
  if (hidden)
    hidden_.insert(phase);
  else
    hidden_.remove(phase);
  rebuild();
}

void PhaseChart::rebuild() {
  removeAllSeries();
  for (QAbstractAxis* axis : axes()) {
    removeAxis(axis);
    delete axis;
  }
  auto* series = new QStackedBarSeries;
  double tallest = 0;
  std::vector<double> totals(bars_.size(), 0.0);
  for (const QString& phase : phases_) {
    auto* set = new QBarSet(phase);
    const bool hidden = hidden_.contains(phase);
    for (std::size_t b = 0; b < bars_.size(); ++b) {
      const double value = hidden ? 0.0 : seconds(b, phase);
      set->append(value);
      totals[b] += value;
    }
    series->append(set);
  }
  for (double total : totals) tallest = std::max(tallest, total);
  addSeries(series);

  auto* categories = new QBarCategoryAxis;
  for (const PhaseBar& bar : bars_) categories->append(bar.label);
  addAxis(categories, Qt::AlignBottom);
  series->attachAxis(categories);
  fit_axis(*this, Qt::AlignLeft, tr("Time (s)"), 0, tallest, false);

  connect(series, &QStackedBarSeries::hovered, this, [this](bool entered, int index, QBarSet* set) {
    if (!entered) {
      QToolTip::hideText();
      return;
    }
    const PhaseBar& bar = bars_.at(std::size_t(index));
    QToolTip::showText(QCursor::pos(), QString("%1\n%2: %3 s of %4 s")
                                           .arg(bar.label, set->label())
                                           .arg(seconds(std::size_t(index), set->label()), 0, 'g', 6)
                                           .arg(bar.stats.seconds_total, 0, 'g', 6));
  });
  // Legend entries toggle their phase; the rebuild is queued since it deletes the clicked marker.
  for (QLegendMarker* marker : legend()->markers(series)) {
    const QString phase = marker->label();
    if (hidden_.contains(phase)) {
      QColor label = marker->labelBrush().color();
      label.setAlphaF(0.4);
      marker->setLabelBrush(label);
    }
    connect(marker, &QLegendMarker::clicked, this, [this, phase] {
      QMetaObject::invokeMethod(
          this, [this, phase] { setPhaseHidden(phase, !hidden_.contains(phase)); }, Qt::QueuedConnection);
    });
  }
}

}  // namespace simjoin::ui
