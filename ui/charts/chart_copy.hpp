#pragma once
// A chart's figure copy: a fresh QChart built from the chart's series data (points, bar values,
// names, pens, brushes, visibility) and axes (kind, range, ticks, title), so that a figure is laid
// out and drawn without touching the chart the user sees. Line, scatter and bar series are copied;
// the interaction (tooltips, legend toggles) is not.
#include <QChart>

#include <memory>

namespace simjoin::ui {

std::unique_ptr<QChart> copy_chart(const QChart& chart);

}  // namespace simjoin::ui
