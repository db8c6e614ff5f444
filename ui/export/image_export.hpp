#pragma once
// Figures to files by extension: .png, .svg or .pdf, at a size in pixels and a resolution
// (image_size.hpp). Works off the GUI thread and without a display. Throws Error(Usage) for another
// extension and Error(BadInput) for a path that cannot be written.
#include <QImage>
#include <QPainter>
#include <QString>

#include <functional>
#include <string>

#include "ui/export/image_size.hpp"

namespace simjoin::ui {

// Opens the file's device (a PNG raster, an SVG drawing or a PDF page of size.pixels / size.dpi
// inches) and lets `paint` draw into `target`, the whole figure in device units. `title` names
// the SVG and PDF document.
void paint_to_file(const std::string& path, const ImageSize& size, const QString& title,
                   const std::function<void(QPainter& painter, const QRectF& target)>& paint);

// The image as QImage::save(path) writes it (format by the path's extension), through a temporary
// renamed once complete; false when it could not be written.
bool save_image_file(const QImage& image, const QString& path);

// The image whole at its own pixels; `dpi` sets its printed size (a raster in any format).
void save_image(const QImage& image, const std::string& path, int dpi = ImageSize{}.dpi);

}  // namespace simjoin::ui
