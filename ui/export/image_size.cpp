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

std::optional<int> parse_dpi(const QString& text) {
  bool ok = false;
  const int dpi = text.trimmed().toInt(&ok);
  if (!ok || dpi < kMinDpi || dpi > kMaxDpi) return std::nullopt;
  return dpi;
}

}  // namespace simjoin::ui
