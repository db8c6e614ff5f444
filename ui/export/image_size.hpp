#pragma once
// The size of an exported figure: its pixels and its resolution. The printed size is pixels / dpi
// (the PNG's resolution, the SVG's and PDF's page). Charts and view figures are laid out at
// pixels x 96 / dpi and drawn scaled to the pixels, so their text and lines keep their printed size
// at any dpi (9-pt text is 9 pt on paper).
#include <QSize>
#include <QSizeF>
#include <QString>

#include <optional>

#include "core/options/option_schema.hpp"

namespace simjoin::ui {

struct ImageSize {
  QSize pixels{1200, 800};
  int dpi = 150;

  // The chart's layout size: what it would measure on a 96-dpi screen.
  QSizeF layout() const { return QSizeF(pixels) * (96.0 / dpi); }
  double dots_per_meter() const { return dpi / 0.0254; }
};

// The rules of the options schema (--size, --dpi, --export-size, --export-dpi).
using option_schema::kMaxDpi, option_schema::kMaxImageSide, option_schema::kMinDpi, option_schema::kMinImageSide;

// "1600x1000" (also "1600X1000") with each side in [kMinImageSide, kMaxImageSide]; nothing otherwise.
std::optional<QSize> parse_image_pixels(const QString& text);
// As parse_image_pixels, or "3.5x2.4in": inches, turned into pixels at `dpi` (pixels = inches x dpi).
std::optional<QSize> parse_image_size(const QString& text, int dpi);
// An integer in [kMinDpi, kMaxDpi]; nothing otherwise.
std::optional<int> parse_dpi(const QString& text);

}  // namespace simjoin::ui
