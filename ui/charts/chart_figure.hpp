#pragma once
// A chart laid out for its printed size: the title and subtitle lines wrapped at word boundaries
// to the figure's width, the legend as rows of whole entries under the plot (a long entry wraps
// at its words), axis labels and tick labels at printed sizes of at least 7.5 pt, tick counts that
// fit the width. Titles and legend are drawn with QPainter, so SVG and PDF carry them as text.
// The figure is drawn from a copy of the chart (chart_copy.hpp): the chart on screen never changes.
// As the view figures do (ui/views/view_figure.hpp), the plot keeps kMinChartPlotShare of the page:
// the legend goes under the plot or beside it, where the plot keeps more, and the caption's subtitle
// lines that would leave it less are left out (the file's title keeps them).
#include <QChart>
#include <QPainter>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace simjoin::ui {

// A series with this property set true has no legend entry in the figure (a min-max bar).
inline constexpr char kNoLegendEntry[] = "simjoin_no_legend_entry";

// The share of the figure's area the plot keeps at least (as kMinPlotShare of the view figures).
inline constexpr double kMinChartPlotShare = 0.55;

// Where the figure put its parts, in layout units.
struct ChartFigureLayout {
  QRectF caption, chart, legend;
  QRectF plot;               // the plot area, inside `chart`
  std::vector<QString> key;  // the legend's entries as drawn
};

// Lays a copy of `chart` out at `layout` (96-dpi units of the printed size) and paints it scaled into
// `target` (device units).
ChartFigureLayout paint_chart_figure(const QChart& chart, QPainter& painter, const QRectF& target,
                                     const QSizeF& layout);

}  // namespace simjoin::ui
