#include "ui/export/image_size.hpp"

#include <QStringList>

namespace simjoin::ui {

std::optional<QSize> parse_image_pixels(const QString& text) {
  const QStringList sides = text.trimmed().toLower().split('x');
  if (sides.size() != 2) return std::nullopt;
  bool width_ok = false, height_ok = false;
  const QSize size(sides[0].toInt(&width_ok), sides[1].toInt(&height_ok));
  const auto in_range = [](int side) { return side >= kMinImageSide && side <= kMaxImageSide; };
  if (!width_ok || !height_ok || !in_range(size.width()) || !in_range(size.height())) return std::nullopt;
  return size;
}

std::optional<QSize> parse_image_size(const QString& text, int dpi) {
  const QString lower = text.trimmed().toLower();
  if (!lower.endsWith("in")) return parse_image_pixels(lower);
  const QStringList sides = lower.chopped(2).split('x');
  if (sides.size() != 2) return std::nullopt;
  bool width_ok = false, height_ok = false;
  const double width = sides[0].toDouble(&width_ok), height = sides[1].toDouble(&height_ok);
  if (!width_ok || !height_ok || !(width > 0) || !(height > 0)) return std::nullopt;
  return parse_image_pixels(QString("%1x%2").arg(qRound(width * dpi)).arg(qRound(height * dpi)));
}

std::optional<int> parse_dpi(const QString& text) {
  bool ok = false;
  const int dpi = text.trimmed().toInt(&ok);
  if (!ok || dpi < kMinDpi || dpi > kMaxDpi) return std::nullopt;
  return dpi;
}

}  // namespace simjoin::ui
