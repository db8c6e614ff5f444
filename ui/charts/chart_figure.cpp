#include "ui/charts/chart_figure.hpp"

#include <QAbstractAxis>
#include <QApplication>
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

#include "ui/export/figure_text.hpp"

namespace simjoin::ui {

namespace {

constexpr double kMargin = 6, kSwatchWidth = 16, kEntryGap = 10, kRowGap = 2;

// What the chart changes for the figure, given back afterwards.
struct ChartState {
  QString title;
  bool legend_visible;
  QMargins margins;
  QRectF geometry;
  qreal layout_margins[4];
  struct AxisFonts {
    QAbstractAxis* axis;
    QFont labels, title;
    QString title_text;
    int ticks;
    double base;
    double min, max;
  };
  std::vector<AxisFonts> axes;
};

ChartState save_state(const QChart& chart) {
  ChartState state{chart.title(), chart.legend()->isVisible(), chart.margins(), chart.geometry(), {}, {}};
  chart.layout()->getContentsMargins(&state.layout_margins[0], &state.layout_margins[1], &state.layout_margins[2],
                                     &state.layout_margins[3]);
  for (QAbstractAxis* axis : chart.axes()) {
    auto* value = qobject_cast<QValueAxis*>(axis);
    auto* log = qobject_cast<QLogValueAxis*>(axis);
    state.axes.push_back({axis, axis->labelsFont(), axis->titleFont(), axis->titleText(),
                          value ? value->tickCount() : 0, log ? log->base() : 0, value ? value->min() : 0,
                          value ? value->max() : 0});
  }
  return state;
}

void restore_state(QChart& chart, const ChartState& state) {
  chart.setTitle(state.title);
  chart.legend()->setVisible(state.legend_visible);
  chart.setMargins(state.margins);
  const qreal* m = state.layout_margins;
  chart.layout()->setContentsMargins(m[0], m[1], m[2], m[3]);
  for (const auto& saved : state.axes) {
    saved.axis->setLabelsFont(saved.labels);
    saved.axis->setTitleFont(saved.title);
    saved.axis->setTitleText(saved.title_text);
    if (auto* value = qobject_cast<QValueAxis*>(saved.axis)) {
      value->setRange(saved.min, saved.max);
      value->setTickCount(saved.ticks);
    }
    if (auto* log = qobject_cast<QLogValueAxis*>(saved.axis)) log->setBase(saved.base);
  }
}

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

// An axis title longer than its side of the plot would be cut to "Largest p...": it is broken at
// spaces into lines that fit (Qt draws the title as rich text).
void wrap_axis_titles(QChart& chart) {
  const QFontMetricsF metrics(figure_font(kAxisTitlePt, true));
  for (QAbstractAxis* axis : chart.axes()) {
    const double room = axis->orientation() == Qt::Horizontal ? chart.plotArea().width() : chart.plotArea().height();
    const QString title = axis->titleText();
    if (title.contains("<br>") || metrics.horizontalAdvance(title) <= room - 4) continue;
    QStringList lines{QString()};
    for (const QString& word : title.split(' ')) {
      const QString longer = lines.back().isEmpty() ? word : lines.back() + ' ' + word;
      if (!lines.back().isEmpty() && metrics.horizontalAdvance(longer) > room - 4)
        lines << word;
      else
        lines.back() = longer;
    }
    axis->setTitleText(lines.join("<br>"));
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

}  // namespace

ChartFigureLayout paint_chart_figure(QChart& chart, QPainter& painter, const QRectF& target, const QSizeF& layout) {
  std::unique_ptr<QGraphicsScene> own_scene;
  if (!chart.scene()) {
    own_scene = std::make_unique<QGraphicsScene>();
    own_scene->addItem(&chart);
  }
  const ChartState state = save_state(chart);
  const double inner = layout.width() - 2 * kMargin;
  const QStringList caption = caption_lines(chart);
  const std::vector<QLegendMarker*> markers = shown_markers(chart);
  const std::vector<QRectF> boxes = legend_boxes(markers, inner);
  double legend_h = 0;
  for (const QRectF& box : boxes) legend_h = std::max(legend_h, box.bottom());

  ChartFigureLayout placed;
  placed.caption = QRectF(kMargin, kMargin, inner, caption_height(caption, inner));
  placed.legend = QRectF(kMargin, layout.height() - kMargin - legend_h, inner, legend_h);
  placed.chart = QRectF(QPointF(0, placed.caption.bottom() + 2), QPointF(layout.width(), placed.legend.top() - 2));

  chart.setTitle({});
  chart.legend()->setVisible(false);
  chart.setMargins(QMargins(2, 2, 8, 2));
  chart.layout()->setContentsMargins(0, 0, 0, 0);
  fit_axes_to_print(chart, placed.chart.size());
  lay_out(chart, placed.chart.size());
  thin_log_labels(chart);
  wrap_axis_titles(chart);
  lay_out(chart, placed.chart.size());

  painter.save();
  painter.translate(target.topLeft());
  painter.scale(target.width() / layout.width(), target.height() / layout.height());
  painter.fillRect(QRectF(QPointF(0, 0), layout), Qt::white);
  chart.scene()->render(&painter, placed.chart, chart.sceneBoundingRect());
  paint_caption(painter, placed.caption, caption);
  paint_legend(painter, placed.legend, markers, boxes);
  painter.restore();

  restore_state(chart, state);
  if (own_scene)
    own_scene->removeItem(&chart);
  else
    chart.setGeometry(state.geometry);
  return placed;
}

}  // namespace simjoin::ui
