#pragma once
// A chart laid out for its printed size: the title and subtitle lines wrapped at word boundaries
// to the figure's width, the legend as rows of whole entries under the plot (a long entry wraps
// at its words), axis labels and tick labels at printed sizes of at least 7.5 pt, tick counts that
// fit the width. Titles and legend are drawn with QPainter, so SVG and PDF carry them as text.
#include <QChart>
#include <QPainter>
#include <QRectF>
#include <QSizeF>

namespace simjoin::ui {

// A series with this property set true has no legend entry in the figure (a min-max bar).
inline constexpr char kNoLegendEntry[] = "simjoin_no_legend_entry";

// Where the figure put its parts, in layout units.
struct ChartFigureLayout {
  QRectF caption, chart, legend;
};

// Lays `chart` out at `layout` (96-dpi units of the printed size) and paints it scaled into
// `target` (device units); the chart's own title, legend, fonts and margins are restored after.
ChartFigureLayout paint_chart_figure(QChart& chart, QPainter& painter, const QRectF& target, const QSizeF& layout);

}  // namespace simjoin::ui
