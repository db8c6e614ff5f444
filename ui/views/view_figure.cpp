#include "ui/views/view_figure.hpp"

#include <QFontMetricsF>
#include <QImage>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "ui/export/figure_text.hpp"
#include "ui/export/image_export.hpp"

namespace simjoin::ui {

namespace {

// The grid view's plain points over its shaded cells: this opaque, so that a cell full of points
// keeps its own shade (the shade the key shows) under them.
constexpr int kGridPointAlpha = 70;
constexpr int kMaxRasterSide = 6000;

QColor color_at(const std::vector<std::uint8_t>& rgb, std::size_t i) {
  return QColor(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

// A point's colour as drawn: the grid's plain points translucent over the cells.
QColor point_color(const Layers& layers, std::size_t i) {
  QColor color = color_at(layers.rgb, i);
  if (layers.small_points && !layers.rects.empty() && color == QColor(kGridPoint[0], kGridPoint[1], kGridPoint[2]))
    color.setAlpha(kGridPointAlpha);
  return color;
}

// Where a mark can be drawn: view coordinates beyond float32's range (data near 1e308) map to no
// point of the frame, and QPainter would warn of each one.
bool drawable(QPointF at) { return std::isfinite(at.x()) && std::isfinite(at.y()); }

double point_radius(const Layers& layers) {
  const std::size_t n = layers.ids.size();
  if (layers.small_points || n > 100000) return 0.8;
  return n > 5000 ? 1.2 : 1.8;
}

void paint_cells(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  for (std::size_t r = 0; r < layers.rects.size() / 4; ++r) {
    const QRectF cell = to_frame.mapRect(QRectF(QPointF(layers.rects[4 * r], layers.rects[4 * r + 1]),
                                                QPointF(layers.rects[4 * r + 2], layers.rects[4 * r + 3])));
    if (!drawable(cell.topLeft()) || !drawable(cell.bottomRight())) continue;
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
    const QPointF from = to_frame.map(QPointF(seg[0], seg[1])), to = to_frame.map(QPointF(seg[2], seg[3]));
    if (!drawable(from) || !drawable(to)) continue;
    painter.setPen(QPen(color_at(layers.segment_rgb, s), 1.0, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(from, to);
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
  if (!drawable(at)) return;
  painter.setPen(QPen(Qt::white, 1.0));
  painter.setBrush(Qt::black);
  painter.drawEllipse(at, 2.8, 2.8);
  painter.setPen(QPen(Qt::black, 1.0));
  painter.setBrush(Qt::NoBrush);
  painter.drawEllipse(at, 5.5, 5.5);
}

// The picked point's marks, over everything else drawn at its place (its copy's ring included).
void paint_picked(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  for (std::size_t i = 0; i < layers.ids.size(); ++i)
    if (color_key(layers, i) == 0)
      paint_pick_mark(painter, to_frame.map(QPointF(layers.xy[2 * i], layers.xy[2 * i + 1])));
}

// Each point a filled circle of its colour; the picked point is marked last (paint_picked).
void paint_point_marks(QPainter& painter, const QTransform& to_frame, const Layers& layers) {
  const double r = point_radius(layers);
  for (std::size_t i : colour_order(layers)) {
    const QPointF at = to_frame.map(QPointF(layers.xy[2 * i], layers.xy[2 * i + 1]));
    if (color_key(layers, i) == 0 || !drawable(at)) continue;
    painter.setPen(Qt::NoPen);
    painter.setBrush(point_color(layers, i));
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
// `to_image`), the picked point left to paint_picked: millions of points in a fraction of a second,
// where QPainter strokes each one as a path.
void stamp_points(QImage& image, const QTransform& to_frame, const QTransform& to_image, const Layers& layers) {
  const double pixels_per_unit = std::sqrt(std::abs(to_image.determinant()));
  const std::vector<QPoint> disc = disc_pixels(std::max(point_radius(layers) * pixels_per_unit, 0.5));
  const double reach = 2.0 + disc.back().x();  // beyond this outside the image (or not a number): nothing to write
  for (std::size_t i : colour_order(layers)) {
    if (color_key(layers, i) == 0) continue;
    const QPointF at = to_frame.map(QPointF(layers.xy[2 * i], layers.xy[2 * i + 1]));
    const QPointF pixel = to_image.map(at);
    if (!(pixel.x() > -reach && pixel.y() > -reach && pixel.x() < image.width() + reach &&
          pixel.y() < image.height() + reach))
      continue;
    // Premultiplied: a translucent point is written once, not blended with its neighbours.
    const QRgb colour = qPremultiply(point_color(layers, i).rgba());
    const int x = int(std::lround(pixel.x())), y = int(std::lround(pixel.y()));
    for (const QPoint& offset : disc) {
      const int px = x + offset.x(), py = y + offset.y();
      if (px >= 0 && py >= 0 && px < image.width() && py < image.height())
        reinterpret_cast<QRgb*>(image.scanLine(py))[px] = colour;
    }
  }
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
  // PDF: Flate, never JPEG, so that the points keep their exact colours and edges.
  painter.setRenderHint(QPainter::LosslessImageRendering);
  painter.drawImage(device, image);
  painter.restore();
}

// Rings in black around dots of their own colour: copies smaller, centroids larger.
void paint_rings(QPainter& painter, const QTransform& to_frame, const std::vector<float>& xy,
                 const std::vector<std::uint8_t>& rgb, double radius) {
  painter.setPen(QPen(Qt::black, radius * 0.45));
  for (std::size_t i = 0; i < xy.size() / 2; ++i) {
    const QPointF at = to_frame.map(QPointF(xy[2 * i], xy[2 * i + 1]));
    if (!drawable(at)) continue;
    painter.setBrush(color_at(rgb, i));
    painter.drawEllipse(at, radius, radius);
  }
}

// The centroids' numbers, each only where it lies whole inside the frame (a PDF keeps the text the
// frame clips, which a reader would still select and extract).
void paint_labels(QPainter& painter, const QTransform& to_frame, const QRectF& frame, const Layers& layers) {
  const QFont font = figure_font(kAxisTitlePt, true);
  const QFontMetricsF metrics(font);
  painter.setFont(font);
  painter.setPen(Qt::black);
  for (const Label& label : layers.labels) {
    const QString text = QString::fromStdString(label.text);
    const QPointF at = to_frame.map(QPointF(label.x, label.y)) + QPointF(6, -5);
    if (frame.contains(metrics.boundingRect(text).translated(at))) painter.drawText(at, text);
  }
}

}  // namespace

QRectF layers_bounds(const Layers& layers) {
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  const auto take = [&](const std::vector<float>& xy) {
    for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
      if (std::isfinite(xy[i]) && std::isfinite(xy[i + 1]))
        x0 = std::min<double>(x0, xy[i]), x1 = std::max<double>(x1, xy[i]), y0 = std::min<double>(y0, xy[i + 1]),
        y1 = std::max<double>(y1, xy[i + 1]);
  };
  for (const auto* xy : {&layers.xy, &layers.marker_xy, &layers.copy_xy, &layers.segments, &layers.rects}) take(*xy);
  for (const Label& label : layers.labels) take({label.x, label.y});
  if (!(x1 >= x0)) return QRectF(-1, -1, 2, 2);
  const double pad_x = std::max(1e-9, (x1 - x0) * 0.03), pad_y = std::max(1e-9, (y1 - y0) * 0.03);
  return QRectF(QPointF(x0 - pad_x, y0 - pad_y), QPointF(x1 + pad_x, y1 + pad_y));
}

QTransform world_to_frame(const QRectF& region, const QRectF& frame) {
  const double sx = frame.width() / region.width(), sy = frame.height() / region.height();
  return QTransform(sx, 0, 0, -sy, frame.left() - region.left() * sx, frame.bottom() + region.top() * sy);
}

QRectF drawable_region(const QRectF& region) {
  const QPointF centre = region.center();
  if (!drawable(centre) || !std::isfinite(region.width()) || !std::isfinite(region.height()))
    return QRectF(-1, -1, 2, 2);
  // 64 float32 steps at the centre, and never below float32's smallest normal number.
  const double least =
      64 * std::max<double>(FLT_MIN, std::max(std::abs(centre.x()), std::abs(centre.y())) * FLT_EPSILON);
  QRectF wide = region.normalized();
  wide.setWidth(std::max(wide.width(), least));
  wide.setHeight(std::max(wide.height(), least));
  wide.moveCenter(centre);
  return wide;
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
  paint_picked(painter, to_frame, layers);
  paint_labels(painter, to_frame, frame, layers);
  painter.restore();
}

}  // namespace simjoin::ui
