#pragma once
// Axis handling shared by the charts: a logarithmic axis where the data spans decades, linear
// otherwise, swapped in place as live data arrives.
#include <QChart>
#include <QString>

#include <vector>

namespace simjoin::ui {

// True when all values are positive and max / min reaches 100.
bool spans_decades(double min, double max);
// True when sorted values step by more even ratios than differences (0.1, 0.2, 0.4 but not 0.1,
// 0.2, 0.3): a sweep's spacing, which its axis follows. Two values: spans_decades; any value <= 0: false.
bool log_spaced(const std::vector<double>& sorted);

// Makes the chart's axis on `alignment` logarithmic or linear as asked (replacing it and attaching
// every series when the kind changes), titles it and fits it to [min, max] with a margin.
void fit_axis(QChart& chart, Qt::Alignment alignment, const QString& title, double min, double max, bool logarithmic);

// Attaches every axis of the chart to `series` (for series added after the axes).
void attach_axes(QChart& chart, QAbstractSeries& series);

}  // namespace simjoin::ui
