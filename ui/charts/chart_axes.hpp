#pragma once
// Axis handling shared by the charts: a logarithmic axis where the data spans decades, linear
// otherwise, swapped in place as live data arrives.
#include <QChart>
#include <QString>

namespace simjoin::ui {

// True when all values are positive and max / min reaches 100.
bool spans_decades(double min, double max);

// Makes the chart's axis on `alignment` logarithmic or linear as asked (replacing it and attaching
// every series when the kind changes), titles it and fits it to [min, max] with a margin.
void fit_axis(QChart& chart, Qt::Alignment alignment, const QString& title, double min, double max,
              bool logarithmic);

// Attaches every axis of the chart to `series` (for series added after the axes).
void attach_axes(QChart& chart, QAbstractSeries& series);

}  // namespace simjoin::ui
