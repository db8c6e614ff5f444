#include "ui/charts/sweep_chart.hpp"

#include <QCursor>
#include <QLegendMarker>
#include <QPen>
#include <QToolTip>

#include <algorithm>
#include <limits>

#include "core/base/error.hpp"
#include "ui/charts/chart_axes.hpp"
#include "ui/charts/chart_caption.hpp"
#include "ui/charts/chart_figure.hpp"

namespace simjoin::ui {

namespace {
// Qt Charts' light theme colours, in its order.
const QColor kSeriesColours[] = {QColor(0x209fdf), QColor(0x99ca53), QColor(0xf6a625), QColor(0x6d5fd5),
                                 QColor(0xbf593e)};

struct MetricName {
  SweepMetric metric;
  const char* name;
  const char* title;
};
constexpr MetricName kMetrics[] = {
    {SweepMetric::Seconds, "seconds", "Time (s)"},
    {SweepMetric::Pairs, "pairs", "Pairs"},
    {SweepMetric::ReplicatedPoints, "replicated", "Replicated points"},
    {SweepMetric::ComparedRatio, "compared-ratio", "Compared-pairs ratio"},
    {SweepMetric::LargestPartition, "largest-partition", "Largest partition (points)"},
    {SweepMetric::SmallestPartition, "smallest-partition", "Smallest partition (points)"},
};

double x_of(const SweepPoint& point, SweepAxis axis) { return axis == SweepAxis::Eps ? point.eps : double(point.k); }

QString eps_description(const std::vector<double>& values, bool logarithmic) {
  if (values.size() == 1) return QString("\u03b5 = %1").arg(values.front(), 0, 'g', 6);
  return QString("\u03b5 = %1 to %2 (%3 values, %4 spacing)")
      .arg(values.front(), 0, 'g', 6)
      .arg(values.back(), 0, 'g', 6)
      .arg(values.size())
      .arg(logarithmic ? "log" : "linear");
}

QString k_values_description(const std::vector<int>& values) {
  if (values.size() == 1) return k_description(values.front());
  QStringList ks;
  for (int k : values) ks << QString::number(k);
  return "k = " + ks.join(", ");
}
}  // namespace

QString metric_title(SweepMetric metric) {
  for (const MetricName& m : kMetrics)
    if (m.metric == metric) return m.title;
  return {};
}

std::optional<double> metric_value(const SweepPoint& point, SweepMetric metric) {
  const auto& sizes = point.partition_sizes;
  switch (metric) {
    case SweepMetric::Seconds:
      return point.seconds.median;
    case SweepMetric::Pairs:
      return double(point.stats.pairs);
    case SweepMetric::ReplicatedPoints:
      return double(point.stats.replicated_points);
    case SweepMetric::ComparedRatio:
      return point.stats.compared_ratio();
    case SweepMetric::LargestPartition:
      if (sizes.empty()) return std::nullopt;
      return double(*std::max_element(sizes.begin(), sizes.end()));
    case SweepMetric::SmallestPartition:
      if (sizes.empty()) return std::nullopt;
      return double(*std::min_element(sizes.begin(), sizes.end()));
  }
  return std::nullopt;
}

SweepMetric parse_metric(const std::string& name) {
  std::string known;
  for (const MetricName& m : kMetrics) {
    if (name == m.name) return m.metric;
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  }
  fail(ErrorKind::Usage, "unknown chart metric '" + name + "'; known metrics: " + known);
}

SweepChart::SweepChart(QGraphicsItem* parent) : QChart(parent) { legend()->setAlignment(Qt::AlignBottom); }

void SweepChart::begin(const SweepSpec& raw) {
  const SweepSpec spec = raw.normalized();
  x_axis_ = spec.eps_values.size() == 1 && spec.k_values.size() > 1 ? SweepAxis::K : SweepAxis::Eps;
  name_by_k_ = x_axis_ == SweepAxis::Eps && spec.k_values.size() > 1;
  name_by_eps_ = x_axis_ == SweepAxis::K && spec.eps_values.size() > 1;
  several_k_ = spec.k_values.size() > 1;
  std::vector<double> x_values(spec.eps_values);
  if (x_axis_ == SweepAxis::K) x_values.assign(spec.k_values.begin(), spec.k_values.end());
  x_log_ = log_spaced(x_values);
  x_first_ = x_values.front(), x_last_ = x_values.back();
  spec_ = spec;
  points_.clear();
  rebuild();
}

void SweepChart::addPoint(const SweepPoint& point) {
  points_.push_back(point);
  plot(points_.size() - 1);
  fitAxes();
}

void SweepChart::setMetric(SweepMetric metric) {
  metric_ = metric;
  rebuild();
}

int SweepChart::plottedPointCount() const {
  int count = 0;
  for (const auto& [series, members] : members_) count += int(members.size());
  return count;
}

void SweepChart::rebuild() {
  removeAllSeries();
  for (QAbstractAxis* axis : axes()) {
    removeAxis(axis);
    delete axis;
  }
  series_.clear();
  members_.clear();
  bars_.clear();
  setCaption();
  for (std::size_t i = 0; i < points_.size(); ++i) plot(i);
  fitAxes();
}

QLineSeries* SweepChart::seriesFor(const SweepPoint& point) {
  QString name = QString::fromStdString(point.engine);
  if (name_by_k_ && point.uses_k) name += QString(" k=%1").arg(point.k);
  if (name_by_eps_) name += QString(" eps=%1").arg(point.eps);
  if (several_k_ && !point.uses_k) name += tr(" (ignores k)");
  auto found = series_.find(name);
  if (found != series_.end()) return found->second;
  auto* series = new QLineSeries;
  series->setName(name);
  series->setPointsVisible(true);
  addSeries(series);
  // The theme would colour by the chart's series count, which the min-max bars advance too: two
  // engines could share a colour. Named series take the theme's colours in their own order.
  series->setColor(kSeriesColours[series_.size() % std::size(kSeriesColours)]);
  if (several_k_ && !point.uses_k) {
    QPen dashed = series->pen();
    dashed.setStyle(Qt::DashLine);
    series->setPen(dashed);
    series->setPointsVisible(false);  // its ends are not runs
  }
  attach_axes(*this, *series);
  connect(series, &QLineSeries::hovered, this, [this, series](const QPointF& at, bool entered) {
    if (entered)
      showTooltip(series, at);
    else
      QToolTip::hideText();
  });
  legend_toggle_.attach(*this);
  series_[name] = series;
  return series;
}

void SweepChart::plot(std::size_t index) {
  const SweepPoint& point = points_[index];
  const std::optional<double> y = metric_value(point, metric_);
  if (!y) return;
  QLineSeries* series = seriesFor(point);
  std::vector<std::size_t>& members = members_[series];
  const double x = x_of(point, x_axis_);
  members.insert(std::upper_bound(members.begin(), members.end(), x,
                                  [&](double value, std::size_t m) { return value < x_of(points_[m], x_axis_); }),
                 index);
  QList<QPointF> line;
  for (std::size_t m : members) line.append({x_of(points_[m], x_axis_), *metric_value(points_[m], metric_)});
  // Its one run stands for every k: a level line across the sweep, not points that seem to vary.
  if (x_axis_ == SweepAxis::K && !point.uses_k) line = {{x_first_, *y}, {x_last_, *y}};
  series->replace(line);
  if (metric_ == SweepMetric::Seconds && point.seconds.max > point.seconds.min) addRangeBar(series, point);
}

void SweepChart::addRangeBar(QLineSeries* series, const SweepPoint& point) {
  const double x = x_axis_ == SweepAxis::K && !point.uses_k ? x_first_ : x_of(point, x_axis_);
  auto* bar = new QLineSeries;
  bar->setName(series->name() + " min-max");
  bar->append(x, point.seconds.min);
  bar->append(x, point.seconds.max);
  bar->setPen(QPen(series->color(), 1.5));
  bar->setProperty(kNoLegendEntry, true);
  addSeries(bar);
  attach_axes(*this, *bar);
  bar->setVisible(series->isVisible());
  // Bars follow their series' visibility (the legend toggles it) and have no legend entry.
  const auto hide_marker = [this, bar] {
    for (QLegendMarker* marker : legend()->markers(bar)) marker->setVisible(false);
  };
  hide_marker();
  connect(series, &QAbstractSeries::visibleChanged, bar, [series, bar, hide_marker] {
    bar->setVisible(series->isVisible());
    hide_marker();
  });
  bars_[series].push_back(bar);
}

void SweepChart::setCaption() {
  const QString title = metric_title(metric_) + (x_axis_ == SweepAxis::Eps ? tr(" vs \u03b5") : tr(" vs k"));
  if (!spec_.a) return setTitle(title);
  QStringList engines;
  for (const std::string& engine : spec_.engines) engines << QString::fromStdString(engine);
  const RepeatRule& rule = spec_.timing;
  const QString timing =
      rule.repeat > 1 ? tr("median of %1 runs after %2 warm-up, bars min to max").arg(rule.repeat).arg(rule.warmup)
                      : tr("%1 run after %2 warm-up").arg(rule.repeat).arg(rule.warmup);
  QStringList lines = {data_description(*spec_.a, spec_.b.get()) + "; " +
                           eps_description(spec_.eps_values, x_axis_ == SweepAxis::Eps && x_log_) + "; " +
                           k_values_description(spec_.k_values),
                       tr("engines %1; %2").arg(engines.join(", "), timing)};
  const QString machine = QString::fromStdString(spec_.machine);
  if (!machine.isEmpty()) lines << (spec_.machine_details ? machine : machine_subtitle(machine));
  set_chart_caption(*this, title, lines);
}

void SweepChart::fitAxes() {
  double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min;
  double y_min = x_min, y_max = -x_min;
  for (const auto& [series, members] : members_)
    for (std::size_t m : members) {
      const double x = x_of(points_[m], x_axis_), y = *metric_value(points_[m], metric_);
      x_min = std::min(x_min, x), x_max = std::max(x_max, x);
      y_min = std::min(y_min, y), y_max = std::max(y_max, y);
    }
  if (x_min > x_max) return;  // nothing plotted yet
  for (const auto& [series, bars] : bars_)
    for (const QLineSeries* bar : bars)
      y_min = std::min(y_min, bar->at(0).y()), y_max = std::max(y_max, bar->at(1).y());
  fit_axis(*this, Qt::AlignBottom, x_axis_ == SweepAxis::Eps ? tr("\u03b5") : tr("k"), std::min(x_min, x_first_),
           std::max(x_max, x_last_), x_log_);
  fit_axis(*this, Qt::AlignLeft, metric_title(metric_), y_min, y_max, spans_decades(y_min, y_max));
}

QString SweepChart::pointText(const SweepPoint& point) const {
  const RunStats& stats = point.stats;
  QString text = QString(
                     "%1\neps = %2, k = %3\ntime = %4 s (median; %5 to %6 s over %7 runs)\npairs = %8\n"
                     "replicated = %9\ncompared ratio = %10")
                     .arg(QString::fromStdString(point.engine))
                     .arg(point.eps, 0, 'g', 10)
                     .arg(point.uses_k ? QString::number(point.k) : tr("ignored"))
                     .arg(point.seconds.median, 0, 'g', 6)
                     .arg(point.seconds.min, 0, 'g', 6)
                     .arg(point.seconds.max, 0, 'g', 6)
                     .arg(point.timed_runs)
                     .arg(stats.pairs)
                     .arg(stats.replicated_points)
                     .arg(stats.compared_ratio(), 0, 'g', 6);
  if (!point.partition_sizes.empty())
    text += QString("\npartitions: %1 to %2 points")
                .arg(*metric_value(point, SweepMetric::SmallestPartition))
                .arg(*metric_value(point, SweepMetric::LargestPartition));
  return text;
}

void SweepChart::showTooltip(QLineSeries* series, const QPointF& at) {
  const auto found = members_.find(series);
  if (found == members_.end() || found->second.empty()) return;
  // The nearest data point on screen, since `at` is wherever the cursor met the line.
  const QPointF cursor = mapToPosition(at, series);
  std::size_t best = found->second.front();
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t m : found->second) {
    const QPointF p = mapToPosition({x_of(points_[m], x_axis_), *metric_value(points_[m], metric_)}, series);
    const double distance = QLineF(p, cursor).length();
    if (distance < best_distance) best_distance = distance, best = m;
  }
  QToolTip::showText(QCursor::pos(), pointText(points_[best]));
}

}  // namespace simjoin::ui
