#include "ui/charts/chart_axes.hpp"

#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace simjoin::ui {

bool spans_decades(double min, double max) { return min > 0 && max / min >= 100; }

bool log_spaced(const std::vector<double>& sorted) {
  if (sorted.size() < 2 || sorted.front() <= 0) return false;
  if (sorted.size() == 2) return spans_decades(sorted.front(), sorted.back());
  // How uneven the steps are: the largest step over the smallest, as differences and as ratios.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double diff_min = kInf, diff_max = 0, ratio_min = kInf, ratio_max = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const double diff = sorted[i] - sorted[i - 1], ratio = sorted[i] / sorted[i - 1];
    diff_min = std::min(diff_min, diff), diff_max = std::max(diff_max, diff);
    ratio_min = std::min(ratio_min, ratio), ratio_max = std::max(ratio_max, ratio);
  }
  return ratio_max / ratio_min < diff_max / diff_min;
}

void fit_axis(QChart& chart, Qt::Alignment alignment, const QString& title, double min, double max, bool logarithmic) {
  const QList<QAbstractAxis*> existing =
      chart.axes(alignment & (Qt::AlignLeft | Qt::AlignRight) ? Qt::Vertical : Qt::Horizontal);
  QAbstractAxis* axis = existing.isEmpty() ? nullptr : existing.first();
  const bool is_log = axis && axis->type() == QAbstractAxis::AxisTypeLogValue;
  if (axis && is_log != logarithmic) {
    chart.removeAxis(axis);
    delete axis;
    axis = nullptr;
  }
  if (!axis) {
    if (logarithmic) {
      auto* log_axis = new QLogValueAxis;
      log_axis->setLabelFormat("%g");
      log_axis->setMinorTickCount(-1);
      axis = log_axis;
    } else {
      auto* value_axis = new QValueAxis;
      value_axis->setLabelFormat("%g");
      axis = value_axis;
    }
    chart.addAxis(axis, alignment);
    for (QAbstractSeries* series : chart.series()) series->attachAxis(axis);
  }
  axis->setTitleText(title);
  if (logarithmic) {
    // Within two decades, powers of ten would leave one or two labels: label powers of two.
    static_cast<QLogValueAxis*>(axis)->setBase(spans_decades(min, max) ? 10 : 2);
    axis->setRange(min / 1.5, max * 1.5);
  } else {
    const double margin = max > min ? 0.05 * (max - min) : std::max(std::abs(max) * 0.1, 1.0);
    // Counts and times never go below zero; neither should the axis.
    axis->setRange(min >= 0 ? std::max(0.0, min - margin) : min - margin, max + margin);
    // Round the range to readable tick values (0.002, 0.004 rather than 0.00245286).
    static_cast<QValueAxis*>(axis)->applyNiceNumbers();
  }
}

void attach_axes(QChart& chart, QAbstractSeries& series) {
  for (QAbstractAxis* axis : chart.axes()) series.attachAxis(axis);
}

}  // namespace simjoin::ui
