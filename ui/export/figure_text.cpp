#include "ui/export/figure_text.hpp"

#include <QFontMetricsF>

#include <cmath>

namespace simjoin::ui {

namespace {
constexpr int kWrapFlags = Qt::TextWordWrap;
}  // namespace

QFont figure_font(double points, bool bold) {
  QFont font;
  // Pixel sizes in the 96-dpi layout, so that the device's own resolution does not scale them twice.
  font.setPixelSize(std::max(1, int(std::lround(points * 96.0 / 72.0))));
  font.setBold(bold);
  return font;
}

QSizeF wrapped_size(const QFont& font, double width, const QString& text) {
  if (text.isEmpty()) return {0, 0};
  return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), kWrapFlags | Qt::AlignLeft, text).size();
}

double draw_wrapped(QPainter& painter, QPointF top_left, double width, const QFont& font, const QString& text,
                    Qt::Alignment align) {
  const QSizeF size = wrapped_size(font, width, text);
  painter.setFont(font);
  painter.drawText(QRectF(top_left, QSizeF(width, size.height())), kWrapFlags | int(align), text);
  return size.height();
}

std::vector<double> nice_ticks(double low, double high, int max_count) {
  if (!(high > low) || max_count < 2) return {low};
  // The finest step of 1, 2 or 5 times a power of ten that gives at most max_count ticks, or the one
  // before it where that would leave a single tick (5 ticks rather than 1 across [-4.3, 4.3]).
  const double power = std::pow(10.0, std::floor(std::log10((high - low) / max_count)));
  const auto count = [&](double step) { return std::floor(high / step) - std::ceil(low / step) + 1; };
  double step = power, finer = 0;
  for (double factor : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
    step = factor * power;
    if (count(step) <= max_count) {
      if (count(step) < 2 && finer > 0) step = finer;
      break;
    }
    finer = step;
  }
  std::vector<double> ticks;
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

QString tick_text(double value, double step) {
  const int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  if (std::abs(value) >= 1e6 || (value != 0 && std::abs(value) < 1e-4)) return QString::number(value, 'g', 4);
  return QString::number(value, 'f', decimals);
}

}  // namespace simjoin::ui
