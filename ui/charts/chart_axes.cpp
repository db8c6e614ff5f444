#include "ui/charts/chart_axes.hpp"

#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace simjoin::ui {

bool spans_decades(double min, double max) { return min > 0 && max / min >= 100; }

void fit_axis(QChart& chart, Qt::Alignment alignment, const QString& title, double min, double max,
              bool logarithmic) {
  const QList<QAbstractAxis*> existing = chart.axes(
      alignment & (Qt::AlignLeft | Qt::AlignRight) ? Qt::Vertical : Qt::Horizontal);
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
      log_axis->setBase(10);
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
