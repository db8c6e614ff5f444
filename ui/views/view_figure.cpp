#include "ui/views/view_figure.hpp"

#include <QFontMetricsF>
#include <QImage>
#include <QObject>

#include <algorithm>
#include <cmath>

#include "ui/export/figure_text.hpp"
#include "ui/export/image_export.hpp"

namespace simjoin::ui {

namespace {

constexpr double kMargin = 6, kGap = 4, kLegendGap = 10, kSwatch = 8;
// Below this width (96-dpi units, 4.7 in) the legend goes under the plot instead of beside it.
constexpr double kLegendBesideFrom = 450;
constexpr int kMaxRasterSide = 6000;

QColor color_at(const std::vector<std::uint8_t>& rgb, std::size_t i) {
  return QColor(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

// View coordinates (y up) to the frame (y down).
QTransform world_to_frame(const QRectF& region, const QRectF& frame) {
  const double sx = frame.width() / region.width(), sy = frame.height() / region.height();
  return QTransform(sx, 0, 0, -sy, frame.left() - region.left() * sx, frame.bottom() + region.top() * sy);
}

double point_radius(const Layers& layers) {
  const std::size_t n = layers.ids.size();
  if (layers.small_points || n > 100000) return 0.8;
  return n > 5000 ? 1.2 : 1.8;
}

void paint_cells(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  for (std::size_t r = 0; r < layers.rects.size() / 4; ++r) {
    const QRectF cell = to_frame.mapRect(QRectF(QPointF(layers.rects[4 * r], layers.rects[4 * r + 1]),
                                                QPointF(layers.rects[4 * r + 2], layers.rects[4 * r + 3])));
    const QColor fill = color_at(layers.rect_rgb, r);
    painter.setPen(QPen(fill.darker(133), 0.5));
    painter.setBrush(fill);
    painter.drawRect(cell);
  }
}

void paint_segments(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  painter.setBrush(Qt::NoBrush);
  for (std::size_t s = 0; s < layers.segments.size() / 4; ++s) {
    const float* seg = &layers.segments[4 * s];
    painter.setPen(QPen(color_at(layers.segment_rgb, s), 1.0, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(to_frame.map(QPointF(seg[0], seg[1])), to_frame.map(QPointF(seg[2], seg[3])));
  }
}

std::uint32_t color_key(const Layers& layers, std::size_t i) {
  return (layers.rgb[3 * i] << 16) | (layers.rgb[3 * i + 1] << 8) | layers.rgb[3 * i + 2];
}

// The points' indices grouped by colour (fewer style changes), the picked point (kPicked, black) last.
std::vector<std::size_t> colour_order(const Layers& layers) {
  std::vector<std::size_t> order(layers.ids.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return color_key(layers, a) > color_key(layers, b); });
  return order;
}

// The picked point: a black dot in a ring, visible over any colour.
void paint_pick_mark(QPainter& painter, QPointF at) {
  painter.setPen(QPen(Qt::white, 1.0));
  painter.setBrush(Qt::black);
  painter.drawEllipse(at, 2.8, 2.8);
  painter.setPen(QPen(Qt::black, 1.0));
  painter.setBrush(Qt::NoBrush);
  painter.drawEllipse(at, 5.5, 5.5);
}

// Each point a filled circle of its colour, the picked point last.
void paint_point_marks(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  const double r = point_radius(layers);
  for (std::size_t i : colour_order(layers)) {
    const QPointF at = to_frame.map(QPointF(layers.xy[2 * i], layers.xy[2 * i + 1]));
    if (color_key(layers, i) == 0) {
      paint_pick_mark(painter, at);
      continue;
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(color_at(layers.rgb, i));
    painter.drawEllipse(at, r, r);
  }
}

// The offsets of the pixels a disc of `radius` pixels covers.
std::vector<QPoint> disc_pixels(double radius) {
  const int reach = std::max(0, int(std::ceil(radius)));
  std::vector<QPoint> pixels;
  for (int dy = -reach; dy <= reach; ++dy)
    for (int dx = -reach; dx <= reach; ++dx)
      if (dx * dx + dy * dy <= radius * radius + 0.5) pixels.emplace_back(dx, dy);
  return pixels;
}

// The points as discs written straight into the image's pixels (frame units -> image pixels by
// `to_image`), the picked point as its marks: millions of points in a fraction of a second, where
// QPainter strokes each one as a path.
void stamp_points(QImage& image, const QTransform& to_frame, const QTransform& to_image, const Layers& layers) {
  const double pixels_per_unit = std::sqrt(std::abs(to_image.determinant()));
  const std::vector<QPoint> disc = disc_pixels(std::max(point_radius(layers) * pixels_per_unit, 0.5));
  const double reach = 2.0 + disc.back().x();  // beyond this outside the image (or not a number): nothing to write
  std::vector<QPointF> picked;
  for (std::size_t i : colour_order(layers)) {
    const QPointF at = to_frame.map(QPointF(layers.xy[2 * i], layers.xy[2 * i + 1]));
    if (color_key(layers, i) == 0) {
      picked.push_back(at);
      continue;
    }
    const QPointF pixel = to_image.map(at);
    if (!(pixel.x() > -reach && pixel.y() > -reach && pixel.x() < image.width() + reach &&
          pixel.y() < image.height() + reach))
      continue;
    const QRgb colour = color_at(layers.rgb, i).rgb();
    const int x = int(std::lround(pixel.x())), y = int(std::lround(pixel.y()));
    for (const QPoint& offset : disc) {
      const int px = x + offset.x(), py = y + offset.y();
      if (px >= 0 && py >= 0 && px < image.width() && py < image.height())
        reinterpret_cast<QRgb*>(image.scanLine(py))[px] = colour;
    }
  }
  QPainter marks(&image);
  marks.setRenderHint(QPainter::Antialiasing);
  marks.setTransform(to_image);
  for (const QPointF& at : picked) paint_pick_mark(marks, at);
}

// Beyond `max_vector`, the points become one image at the device's resolution.
void paint_points(QPainter& painter, const QTransform& to_frame, const QRectF& frame, const Layers& layers,
                  std::size_t max_vector) {
  if (layers.ids.size() <= max_vector) return paint_point_marks(painter, to_frame, layers);
  const QRectF device = painter.transform().mapRect(frame);
  const double shrink = std::min(1.0, kMaxRasterSide / std::max(device.width(), device.height()));
  QImage image((device.size() * shrink).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  stamp_points(image, to_frame,
               painter.transform() * QTransform::fromTranslate(-device.left(), -device.top()) *
                   QTransform::fromScale(shrink, shrink),
               layers);
  painter.save();
  painter.resetTransform();
  painter.drawImage(device, image);
  painter.restore();
}

// Rings in black around dots of their own colour: copies smaller, centroids larger.
void paint_rings(QPainter& painter, const QTransform& to_frame, const std::vector<float>& xy,
                 const std::vector<std::uint8_t>& rgb, double radius) {
  painter.setPen(QPen(Qt::black, radius * 0.45));
  for (std::size_t i = 0; i < xy.size() / 2; ++i) {
    painter.setBrush(color_at(rgb, i));
    painter.drawEllipse(to_frame.map(QPointF(xy[2 * i], xy[2 * i + 1])), radius, radius);
  }
}

void paint_labels(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  painter.setFont(figure_font(kAxisTitlePt, true));
  painter.setPen(Qt::black);
  for (const Label& label : layers.labels)
    painter.drawText(to_frame.map(QPointF(label.x, label.y)) + QPointF(6, -5), QString::fromStdString(label.text));
}

struct LegendItem {
  QString text;
  QColor color;
  bool heading = false;
};

std::vector<LegendItem> legend_items(const Layers& layers) {
  std::vector<LegendItem> items;
  const auto add = [&items](const LegendEntry& entry) {
    items.push_back({QString::fromStdString(entry.label), QColor(entry.color[0], entry.color[1], entry.color[2])});
  };
  for (const LegendEntry& entry : layers.legend) add(entry);
  if (!layers.picked_facts.empty()) items.push_back({QObject::tr("Picked point"), {}, true});
  for (const LegendEntry& fact : layers.picked_facts) add(fact);
  return items;
}

// The legend as a grid of `columns`, filled row by row; each row as tall as its tallest entry. A
// heading ("Picked point") starts a row of its own.
struct LegendGrid {
  int columns = 1;
  double column_width = 0;
  std::vector<std::pair<int, int>> cells;  // row and column of each item
  std::vector<double> row_heights;
  double height() const {
    double sum = 0;
    for (double h : row_heights) sum += h + 2;
    return sum;
  }
  double row_top(int row) const {
    double top = 0;
    for (int r = 0; r < row; ++r) top += row_heights[r] + 2;
    return top;
  }
};

double entry_height(const LegendItem& item, double width) {
  return wrapped_size(figure_font(kSmallTextPt, item.heading), width - kSwatch - kGap, item.text).height();
}

LegendGrid legend_grid(const std::vector<LegendItem>& items, double width, int columns) {
  LegendGrid grid{columns, (width - (columns - 1) * kLegendGap) / columns, {}, {}};
  int row = -1, column = columns;
  for (const LegendItem& item : items) {
    if (column == columns || (item.heading && column > 0)) row += 1, column = 0, grid.row_heights.push_back(0);
    grid.cells.emplace_back(row, column);
    grid.row_heights[row] = std::max(grid.row_heights[row], entry_height(item, grid.column_width));
    column = item.heading ? columns : column + 1;
  }
  return grid;
}

// The legend's natural width: its longest entry on one line, within `limit`.
double legend_width(const std::vector<LegendItem>& items, double limit) {
  double width = 0;
  for (const LegendItem& item : items)
    width = std::max(width, QFontMetricsF(figure_font(kSmallTextPt, item.heading)).horizontalAdvance(item.text));
  return std::min(limit, width + kSwatch + kGap + 2);
}

void paint_legend(QPainter& painter, const QRectF& box, const std::vector<LegendItem>& items, const LegendGrid& grid) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const LegendItem& item = items[i];
    const auto [row, column] = grid.cells[i];
    const double x = box.left() + column * (grid.column_width + kLegendGap), y = box.top() + grid.row_top(row);
    const QFont font = figure_font(kSmallTextPt, item.heading);
    if (!item.heading) {
      painter.setPen(QPen(QColor(60, 60, 60), 0.5));
      painter.setBrush(item.color);
      const double line = QFontMetricsF(font).height();
      painter.drawRect(QRectF(x, y + (line - kSwatch) / 2, kSwatch, kSwatch));
    }
    painter.setPen(Qt::black);
    draw_wrapped(painter, {x + kSwatch + kGap, y}, grid.column_width - kSwatch - kGap, font, item.text);
  }
}

struct AxisTicks {
  std::vector<double> x, y;
  double x_step = 1, y_step = 1;
};

AxisTicks axis_ticks(const QRectF& region, const QRectF& frame) {
  AxisTicks ticks;
  ticks.x = nice_ticks(region.left(), region.right(), std::max(3, int(frame.width() / 60)));
  ticks.y = nice_ticks(region.top(), region.bottom(), std::max(3, int(frame.height() / 40)));
  ticks.x_step = ticks.x.size() > 1 ? ticks.x[1] - ticks.x[0] : 1;
  ticks.y_step = ticks.y.size() > 1 ? ticks.y[1] - ticks.y[0] : 1;
  return ticks;
}

double widest_tick(const std::vector<double>& ticks, double step) {
  const QFontMetricsF metrics(figure_font(kSmallTextPt));
  double width = 0;
  for (double t : ticks) width = std::max(width, metrics.horizontalAdvance(tick_text(t, step)));
  return width;
}

void paint_axes(QPainter& painter, const QRectF& frame, const QRectF& region, const AxisTicks& ticks,
                const ViewFigure& figure) {
  const QTransform to_frame = world_to_frame(region, frame);
  const QFont small = figure_font(kSmallTextPt);
  const QFontMetricsF metrics(small);
  painter.setFont(small);
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QPen(Qt::black, 0.75));
  painter.drawRect(frame);
  for (double t : ticks.x) {
    const double x = to_frame.map(QPointF(t, 0)).x();
    painter.drawLine(QPointF(x, frame.bottom()), QPointF(x, frame.bottom() + 3));
    const QString text = tick_text(t, ticks.x_step);
    // Centred on its tick, but never past the figure's right margin (a tick at the frame's edge).
    const double width = metrics.horizontalAdvance(text);
    const double left = std::min(x - width / 2, frame.right() + kMargin - width - 1);
    painter.drawText(QRectF(left, frame.bottom() + 4, width + 1, metrics.height()), Qt::AlignLeft | Qt::AlignTop, text);
  }
  for (double t : ticks.y) {
    const double y = to_frame.map(QPointF(0, t)).y();
    painter.drawLine(QPointF(frame.left() - 3, y), QPointF(frame.left(), y));
    const QString text = tick_text(t, ticks.y_step);
    painter.drawText(QRectF(frame.left() - 104, y - metrics.height() / 2, 100, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, text);
  }
  const QFont title_font = figure_font(kAxisTitlePt);
  const double title_height = QFontMetricsF(title_font).height();
  painter.setFont(title_font);
  painter.drawText(QRectF(frame.left(), frame.bottom() + 4 + metrics.height() + 2, frame.width(), title_height),
                   Qt::AlignHCenter | Qt::AlignTop, figure.x_title);
  painter.save();
  painter.translate(kMargin, frame.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-frame.height() / 2, 0, frame.height(), title_height), Qt::AlignHCenter | Qt::AlignTop,
                   figure.y_title);
  painter.restore();
}

QString notes_text(const Layers& layers) {
  QStringList notes;
  for (const std::string& note : layers.notes) notes << QString::fromStdString(note);
  return notes.join("\n");
}

}  // namespace

QRectF layers_bounds(const Layers& layers) {
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  const auto take = [&](const std::vector<float>& xy) {
    for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
      x0 = std::min<double>(x0, xy[i]), x1 = std::max<double>(x1, xy[i]), y0 = std::min<double>(y0, xy[i + 1]),
      y1 = std::max<double>(y1, xy[i + 1]);
  };
  for (const auto* xy : {&layers.xy, &layers.marker_xy, &layers.copy_xy, &layers.segments, &layers.rects}) take(*xy);
  for (const Label& label : layers.labels) take({label.x, label.y});
  if (!(x1 >= x0)) return QRectF(-1, -1, 2, 2);
  const double pad_x = std::max(1e-9, (x1 - x0) * 0.03), pad_y = std::max(1e-9, (y1 - y0) * 0.03);
  return QRectF(QPointF(x0 - pad_x, y0 - pad_y), QPointF(x1 + pad_x, y1 + pad_y));
}

QRectF fit_aspect(const QRectF& region, double aspect) {
  QRectF fitted = region;
  if (region.width() / region.height() < aspect)
    fitted.setWidth(region.height() * aspect);
  else
    fitted.setHeight(region.width() / aspect);
  fitted.moveCenter(region.center());
  return fitted;
}

void paint_view_plot(QPainter& painter, const QRectF& frame, const QRectF& region, const Layers& layers,
                     std::size_t max_vector_points) {
  const QTransform to_frame = world_to_frame(region, frame);
  painter.save();
  painter.setClipRect(frame);
  paint_cells(painter, to_frame, layers);
  paint_segments(painter, to_frame, layers);
  paint_points(painter, to_frame, frame, layers, max_vector_points);
  paint_rings(painter, to_frame, layers.copy_xy, layers.copy_rgb, 2.6);
  paint_rings(painter, to_frame, layers.marker_xy, layers.marker_rgb, 4.5);
  paint_labels(painter, to_frame, layers);
  painter.restore();
}

namespace {

// Where legend and notes go, and how many columns the legend takes.
struct FigurePlan {
  bool beside = false;
  double legend_w = 0, legend_h = 0;
  LegendGrid grid;
  QString notes;
  double notes_h = 0;
  double below = 0;  // under the frame: tick labels, the x title, and legend and notes when under it
};

// Under the plot the legend takes as few columns (up to 2) as leave the plot at least 45 % of the
// height; notes that would leave it less are left out (the window shows them).
FigurePlan plan_figure(const QSizeF& layout, const std::vector<LegendItem>& items, const Layers& layers) {
  FigurePlan plan;
  const double inner = layout.width() - 2 * kMargin;
  const double axes_h =
      4 + QFontMetricsF(figure_font(kSmallTextPt)).height() + 2 + QFontMetricsF(figure_font(kAxisTitlePt)).height();
  const double room = layout.height() * 0.55 - axes_h - kMargin;
  plan.beside = layout.width() >= kLegendBesideFrom;
  const double natural_w = legend_width(items, inner);
  plan.legend_w = items.empty() ? 0 : plan.beside ? std::min(natural_w, 0.34 * inner) : inner;
  int columns = 1;
  if (!plan.beside)
    while (columns < 2 && legend_grid(items, plan.legend_w, columns).height() > room) ++columns;
  plan.grid = legend_grid(items, plan.legend_w, columns);
  plan.legend_h = items.empty() ? 0 : plan.grid.height();
  const double legend_below = plan.beside || items.empty() ? 0 : kLegendGap + plan.legend_h;
  plan.notes = notes_text(layers);
  plan.notes_h = wrapped_size(figure_font(kSmallTextPt), inner, plan.notes).height();
  if (!plan.notes.isEmpty() && legend_below + kGap + plan.notes_h > room) plan.notes.clear(), plan.notes_h = 0;
  plan.below = axes_h + legend_below + (plan.notes.isEmpty() ? 0 : kGap + plan.notes_h);
  return plan;
}

}  // namespace

ViewFigureLayout paint_view_figure(QPainter& painter, const QRectF& target, const QSizeF& layout,
                                   const ViewFigure& figure) {
  const Layers& layers = *figure.layers;
  painter.save();
  painter.translate(target.topLeft());
  painter.scale(target.width() / layout.width(), target.height() / layout.height());
  painter.fillRect(QRectF(QPointF(0, 0), layout), Qt::white);

  const std::vector<LegendItem> items = legend_items(layers);
  const FigurePlan plan = plan_figure(layout, items, layers);
  const double title_h = QFontMetricsF(figure_font(kAxisTitlePt)).height();
  QRectF region = figure.region.isEmpty() ? layers_bounds(layers) : figure.region;
  QRectF frame(QPointF(kMargin + title_h + kGap, kMargin + 2),
               QPointF(layout.width() - kMargin - (plan.beside && !items.empty() ? plan.legend_w + kLegendGap : 0),
                       layout.height() - kMargin - plan.below));
  // The y tick labels' width depends on the ticks, which depend on the frame: measure once, then fit.
  const AxisTicks first = axis_ticks(fit_aspect(region, frame.width() / frame.height()), frame);
  frame.setLeft(frame.left() + widest_tick(first.y, first.y_step) + 6);
  region = fit_aspect(region, frame.width() / frame.height());

  paint_view_plot(painter, frame, region, layers, figure.max_vector_points);
  paint_axes(painter, frame, region, axis_ticks(region, frame), figure);
  ViewFigureLayout placed{frame, {}, {}, region};
  const double under_axes = frame.bottom() + 4 + QFontMetricsF(figure_font(kSmallTextPt)).height() + 2 + title_h;
  if (!items.empty()) {
    placed.legend = plan.beside ? QRectF(frame.right() + kLegendGap, frame.top(), plan.legend_w, plan.legend_h)
                                : QRectF(kMargin, under_axes + kLegendGap, plan.legend_w, plan.legend_h);
    paint_legend(painter, placed.legend, items, plan.grid);
  }
  if (!plan.notes.isEmpty()) {
    const double top = plan.beside || items.empty() ? under_axes + kGap : placed.legend.bottom() + kGap;
    const double width = layout.width() - 2 * kMargin;
    painter.setPen(QColor(60, 60, 60));
    placed.notes = QRectF(kMargin, top, width,
                          draw_wrapped(painter, {kMargin, top}, width, figure_font(kSmallTextPt), plan.notes));
  }
  painter.restore();
  return placed;
}

ViewFigureLayout save_view_figure(const ViewFigure& figure, const std::string& path, const ImageSize& size) {
  ViewFigureLayout placed;
  paint_to_file(path, size, figure.x_title + " / " + figure.y_title, [&](QPainter& painter, const QRectF& target) {
    placed = paint_view_figure(painter, target, size.layout(), figure);
  });
  return placed;
}

}  // namespace simjoin::ui
