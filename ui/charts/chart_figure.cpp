#include "ui/charts/chart_figure.hpp"

#include <QAbstractAxis>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QTextDocumentFragment>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <memory>

#include "ui/charts/chart_copy.hpp"
#include "ui/export/figure_text.hpp"

namespace simjoin::ui {

namespace {

constexpr double kMargin = 6, kGap = 6, kSwatchWidth = 16, kEntryGap = 10, kRowGap = 2;
// A legend beside the plot takes at most this share of the width.
constexpr double kMostBesideWidth = 0.42;
// Room Qt leaves under an axis' tick labels (its label padding).
constexpr double kUnderTicks = 4;

// The title's lines as plain text: the title, then its subtitle lines.
QStringList caption_lines(const QChart& chart) {
  QString plain = QTextDocumentFragment::fromHtml(chart.title()).toPlainText();
  plain.replace(QChar(0x2028), '\n');
  return plain.split('\n', Qt::SkipEmptyParts);
}

double caption_height(const QStringList& lines, double width) {
  double height = 0;
  for (int i = 0; i < lines.size(); ++i)
    height += wrapped_size(figure_font(i == 0 ? kTitlePt : kSmallTextPt, i == 0), width, lines[i]).height();
  return height;
}

void paint_caption(QPainter& painter, const QRectF& box, const QStringList& lines) {
  painter.setPen(Qt::black);
  double y = box.top();
  for (int i = 0; i < lines.size(); ++i)
    y += draw_wrapped(painter, {box.left(), y}, box.width(), figure_font(i == 0 ? kTitlePt : kSmallTextPt, i == 0),
                      lines[i], Qt::AlignHCenter);
}

std::vector<QLegendMarker*> shown_markers(const QChart& chart) {
  std::vector<QLegendMarker*> shown;
  for (QLegendMarker* marker : chart.legend()->markers())
    if (marker->series() && marker->series()->isVisible() && !marker->series()->property(kNoLegendEntry).toBool())
      shown.push_back(marker);
  return shown;
}

// Entries flow left to right in rows; an entry wider than the row wraps its label at words.
std::vector<QRectF> legend_boxes(const std::vector<QLegendMarker*>& markers, double width) {
  const QFont font = figure_font(kSmallTextPt);
  const double label_room = width - kSwatchWidth - 4;
  std::vector<QRectF> boxes;
  double x = 0, y = 0, row_height = 0;
  for (QLegendMarker* marker : markers) {
    const double one_line = QFontMetricsF(font).horizontalAdvance(marker->label());
    const QSizeF label = wrapped_size(font, std::min(label_room, one_line + 1), marker->label());
    const QSizeF entry(kSwatchWidth + 4 + label.width(), label.height());
    if (x > 0 && x + entry.width() > width) x = 0, y += row_height + kRowGap, row_height = 0;
    boxes.emplace_back(QPointF(x, y), entry);
    x += entry.width() + kEntryGap;
    row_height = std::max(row_height, entry.height());
  }
  return boxes;
}

void paint_swatch(QPainter& painter, QLegendMarker* marker, const QRectF& box) {
  const double mid = box.top() + QFontMetricsF(figure_font(kSmallTextPt)).height() / 2;
  if (auto* xy = qobject_cast<QXYSeries*>(marker->series())) {
    QPen pen = xy->pen();
    pen.setWidthF(std::min(pen.widthF(), 2.0));
    painter.setPen(pen);
    painter.drawLine(QPointF(box.left(), mid), QPointF(box.left() + kSwatchWidth, mid));
    if (xy->pointsVisible()) {
      painter.setPen(Qt::NoPen);
      painter.setBrush(pen.color());
      painter.drawEllipse(QPointF(box.left() + kSwatchWidth / 2, mid), 2.5, 2.5);
    }
    return;
  }
  painter.setPen(QPen(QColor(60, 60, 60), 0.5));
  painter.setBrush(marker->brush());
  painter.drawRect(QRectF(box.left() + 3, mid - 5, 10, 10));
}

void paint_legend(QPainter& painter, const QRectF& area, const std::vector<QLegendMarker*>& markers,
                  const std::vector<QRectF>& boxes) {
  const QFont font = figure_font(kSmallTextPt);
  // Rows are centred as a block: shift by the widest row's slack.
  double used = 0;
  for (const QRectF& box : boxes) used = std::max(used, box.right());
  const QPointF origin = area.topLeft() + QPointF((area.width() - used) / 2, 0);
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const QRectF box = boxes[i].translated(origin);
    paint_swatch(painter, markers[i], box);
    painter.setPen(Qt::black);
    draw_wrapped(painter, {box.left() + kSwatchWidth + 4, box.top()}, box.width() - kSwatchWidth - 4, font,
                 markers[i]->label());
  }
}

// Printed fonts for the axes, and no more value ticks than fit the plot's width or height.
void fit_axes_to_print(QChart& chart, const QSizeF& chart_size) {
  for (QAbstractAxis* axis : chart.axes()) {
    axis->setLabelsFont(figure_font(kSmallTextPt));
    axis->setTitleFont(figure_font(kAxisTitlePt, true));
    auto* value = qobject_cast<QValueAxis*>(axis);
    if (!value) continue;
    const bool across = axis->orientation() == Qt::Horizontal;
    const double room = across ? chart_size.width() - 70 : chart_size.height() - 50;
    const int most = std::clamp(int(room / (across ? 55 : 28)) + 1, 2, std::max(2, value->tickCount()));
    // Round steps (0.005, not 0.0075): the range widens to whole steps.
    const std::vector<double> ticks = nice_ticks(value->min(), value->max(), most);
    if (ticks.size() < 2) continue;
    const double step = ticks[1] - ticks[0];
    const double low = std::floor(value->min() / step + 1e-9) * step,
                 high = std::ceil(value->max() / step - 1e-9) * step;
    value->setRange(low, high);
    value->setTickCount(int(std::lround((high - low) / step)) + 1);
  }
}

// Qt elides tick labels spaced closer than their own size: a logarithmic axis labels every
// base^n, so its base grows (2 -> 4 -> 16, 10 -> 100) until its labels have room in the plot.
void thin_log_labels(QChart& chart) {
  const QFontMetricsF metrics(figure_font(kSmallTextPt));
  for (QAbstractAxis* axis : chart.axes()) {
    auto* log = qobject_cast<QLogValueAxis*>(axis);
    if (!log || !(log->min() > 0)) continue;
    const bool across = axis->orientation() == Qt::Horizontal;
    const double room = across ? chart.plotArea().width() : chart.plotArea().height();
    const double needed = across ? metrics.horizontalAdvance("0.0001") * 1.3 : metrics.height() * 1.6;
    while (room * std::log(log->base()) / std::log(log->max() / log->min()) < needed && log->base() < 1e6)
      log->setBase(log->base() * log->base());
  }
}

// Lays the axes out with their new fonts: size hints of the old fonts would leave the tick labels
// too little room (elided to "..."), so the layout is redone once the hints follow the fonts.
void lay_out(QChart& chart, const QSizeF& size) {
  QApplication::processEvents();
  chart.setGeometry(QRectF(QPointF(0, 0), size));
  for (int pass = 0; pass < 2; ++pass) {
    chart.layout()->invalidate();
    chart.layout()->activate();
    QApplication::processEvents();
  }
}

// Where the parts go with the `caption` lines, the legend beside the plot or under it, and the copy
// of the chart laid out in its place.
struct Plan {
  QStringList caption;
  bool beside = false;
  std::vector<QRectF> boxes;  // the legend's entries, from the legend's corner
  ChartFigureLayout placed;
  std::unique_ptr<QGraphicsScene> scene;  // owns the copy
  QChart* chart = nullptr;
  QString x_title, y_title;
  QRectF x_title_box, y_title_box;  // the y title's box before its turn, centred on the plot
  QStringList categories;           // the bars' labels, drawn under the plot by the figure
  double categories_h = 0;
};

double natural_legend_width(const std::vector<QLegendMarker*>& markers, double most) {
  const QFontMetricsF metrics(figure_font(kSmallTextPt));
  double width = 0;
  for (QLegendMarker* marker : markers)
    width = std::max(width, kSwatchWidth + 4 + metrics.horizontalAdvance(marker->label()) + 1);
  return std::min(width, most);
}

Plan plan_figure(const QSizeF& layout, const QStringList& caption, const std::vector<QLegendMarker*>& markers,
                 bool beside) {
  const double inner = layout.width() - 2 * kMargin;
  Plan plan{caption, beside, {}, {}, {}, nullptr, {}, {}, {}, {}, {}, 0};
  const double legend_w = beside ? natural_legend_width(markers, kMostBesideWidth * inner) : inner;
  plan.boxes = legend_boxes(markers, legend_w);
  double legend_h = 0;
  for (const QRectF& box : plan.boxes) legend_h = std::max(legend_h, box.bottom());
  ChartFigureLayout& placed = plan.placed;
  placed.caption = QRectF(kMargin, kMargin, inner, caption_height(caption, inner));
  // Without a caption the chart starts near the edge: Qt keeps half a tick label above the plot.
  const double top = caption.empty() ? 2 : placed.caption.bottom() + 2;
  if (beside) {
    placed.legend =
        QRectF(layout.width() - kMargin - legend_w, top + (layout.height() - top - legend_h) / 2, legend_w, legend_h);
    placed.chart = QRectF(QPointF(0, top), QPointF(placed.legend.left() - kGap, layout.height() - kMargin));
  } else {
    placed.legend = QRectF(kMargin, layout.height() - kMargin - legend_h, inner, legend_h);
    placed.chart = QRectF(QPointF(0, top), QPointF(layout.width(), placed.legend.top() - 2));
  }
  return plan;
}

// The axes' titles are drawn by the figure, not by Qt, whose title boxes carry a wide padding: the
// chart's margins leave room for them, wrapped at words to the plot's side.
void take_axis_titles(Plan& plan) {
  for (QAbstractAxis* axis : plan.chart->axes()) {
    (axis->orientation() == Qt::Horizontal ? plan.x_title : plan.y_title) =
        QTextDocumentFragment::fromHtml(axis->titleText()).toPlainText();
    axis->setTitleVisible(false);
  }
  const QFont font = figure_font(kAxisTitlePt, true);
  const QRectF& area = plan.placed.chart;
  const double x_h = plan.x_title.isEmpty() ? 0 : wrapped_size(font, area.width() - 70, plan.x_title).height() + 1;
  const double y_h = plan.y_title.isEmpty() ? 0 : wrapped_size(font, area.height() - 50, plan.y_title).height() + 2;
  // Qt keeps a few units under the tick labels already: the x title takes them.
  plan.chart->setMargins(QMargins(2 + int(std::ceil(y_h)), 0, 4, int(std::ceil(std::max(0.0, x_h - kUnderTicks)))));
  plan.x_title_box = QRectF(area.left(), area.bottom() - x_h, area.width() - 70, x_h);
  plan.y_title_box = QRectF(area.left() + 2, area.top(), y_h, area.height() - 50);
}

// Qt elides a category label wider than half its bar's room ("#1 cp..."): the figure draws the
// labels instead, each wrapped at its words to its bar's room, in room the chart's margin leaves.
void take_categories(Plan& plan) {
  for (QAbstractAxis* axis : plan.chart->axes())
    if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
      plan.categories = categories->categories();
      categories->setLabelsVisible(false);
    }
  if (plan.categories.isEmpty()) return;
  const double room = (plan.placed.chart.width() - 70) / plan.categories.size() - 6;
  for (const QString& label : plan.categories)
    plan.categories_h = std::max(plan.categories_h, wrapped_size(figure_font(kSmallTextPt), room, label).height());
  const QMargins margins = plan.chart->margins();
  plan.chart->setMargins(margins + QMargins(0, 0, 0, int(std::ceil(plan.categories_h)) + 4));
}

void paint_categories(QPainter& painter, const Plan& plan) {
  painter.setPen(QColor(60, 60, 60));
  const QRectF& plot = plan.placed.plot;
  const double band = plot.width() / std::max<qsizetype>(plan.categories.size(), 1);
  for (qsizetype i = 0; i < plan.categories.size(); ++i)
    draw_wrapped(painter, {plot.left() + double(i) * band + 3, plot.bottom() + 4}, band - 6, figure_font(kSmallTextPt),
                 plan.categories[i], Qt::AlignHCenter);
}

// Lays a copy of the chart out in the plan's place for it; returns the plot area's share of the page.
double lay_out_plan(const QChart& source, Plan& plan, const QSizeF& layout) {
  if (plan.placed.chart.height() < 60 || plan.placed.chart.width() < 80) return 0;
  plan.scene = std::make_unique<QGraphicsScene>();
  plan.chart = copy_chart(source).release();
  plan.scene->addItem(plan.chart);
  plan.chart->setTitle({});
  plan.chart->legend()->setVisible(false);
  plan.chart->layout()->setContentsMargins(0, 0, 0, 0);
  take_axis_titles(plan);
  take_categories(plan);
  fit_axes_to_print(*plan.chart, plan.placed.chart.size());
  lay_out(*plan.chart, plan.placed.chart.size());
  thin_log_labels(*plan.chart);
  lay_out(*plan.chart, plan.placed.chart.size());
  const QRectF plot = plan.placed.plot = plan.chart->plotArea().translated(plan.placed.chart.topLeft());
  plan.x_title_box.moveCenter({plot.center().x(), plan.x_title_box.center().y()});
  plan.y_title_box.moveCenter({plan.y_title_box.center().x(), plot.center().y()});
  return plot.width() * plot.height() / (layout.width() * layout.height());
}

// The legend where the plot keeps more area, and the caption's lines, in order, while the plot keeps
// kMinChartPlotShare. The title goes last: its words ("Time (s) vs eps") are the axes' titles.
Plan best_plan(const QChart& source, const QSizeF& layout, const std::vector<QLegendMarker*>& markers) {
  QStringList caption = caption_lines(source);
  Plan best;
  for (;;) {
    double best_share = -1;
    for (const bool beside : {false, true}) {
      if (beside && markers.empty()) continue;
      Plan plan = plan_figure(layout, caption, markers, beside);
      const double share = lay_out_plan(source, plan, layout);
      if (share > best_share) best_share = share, best = std::move(plan);
    }
    if (best_share >= kMinChartPlotShare || caption.empty()) return best;
    caption.removeLast();
  }
}

void paint_axis_titles(QPainter& painter, const Plan& plan) {
  const QFont font = figure_font(kAxisTitlePt, true);
  painter.setPen(Qt::black);
  const QRectF& x = plan.x_title_box;
  draw_wrapped(painter, x.topLeft(), x.width(), font, plan.x_title, Qt::AlignHCenter);
  const QRectF& y = plan.y_title_box;
  painter.save();
  painter.translate(y.left(), y.bottom());
  painter.rotate(-90);
  draw_wrapped(painter, {0, 0}, y.height(), font, plan.y_title, Qt::AlignHCenter);
  painter.restore();
}

}  // namespace

ChartFigureLayout paint_chart_figure(const QChart& source, QPainter& painter, const QRectF& target,
                                     const QSizeF& layout) {
  const std::vector<QLegendMarker*> markers = shown_markers(source);
  Plan plan = best_plan(source, layout, markers);
  painter.save();
  painter.translate(target.topLeft());
  painter.scale(target.width() / layout.width(), target.height() / layout.height());
  painter.fillRect(QRectF(QPointF(0, 0), layout), Qt::white);
  if (plan.chart) plan.scene->render(&painter, plan.placed.chart, plan.chart->sceneBoundingRect());
  paint_caption(painter, plan.placed.caption, plan.caption);
  paint_axis_titles(painter, plan);
  paint_categories(painter, plan);
  paint_legend(painter, plan.placed.legend, markers, plan.boxes);
  painter.restore();
  for (QLegendMarker* marker : markers) plan.placed.key.push_back(marker->label());
  return plan.placed;
}

}  // namespace simjoin::ui
