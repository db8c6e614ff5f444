#include "ui/export/image_size.hpp"

namespace simjoin::ui {

namespace {
std::optional<QSize> to_qsize(const std::optional<option_schema::Pixels>& pixels) {
  if (!pixels) return std::nullopt;
  return QSize(pixels->width, pixels->height);
}
}  // namespace

std::optional<QSize> parse_image_pixels(const QString& text) {
  return to_qsize(option_schema::parse_image_pixels(text.toStdString()));
}

std::optional<QSize> parse_image_size(const QString& text, int dpi) {
  return to_qsize(option_schema::parse_image_size(text.toStdString(), dpi));
}

std::optional<int> parse_dpi(const QString& text) { return option_schema::parse_dpi(text.toStdString()); }

}  // namespace simjoin::ui
