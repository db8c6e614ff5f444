#include "ui/export/image_export.hpp"

#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "core/error.hpp"
#include "core/io/file_io.hpp"

namespace simjoin::ui {

namespace {
// Paints the image whole onto a device of its own size (in the device's logical pixels).
bool paint_image(QPaintDevice& device, const QImage& image) {
  QPainter painter;
  if (!painter.begin(&device)) return false;
  painter.drawImage(QRect(0, 0, device.width(), device.height()), image);
  return painter.end();
}
}  // namespace

void save_image(const QImage& image, const std::string& path) {
  const QString file = QString::fromStdString(path);
  const std::string ext = lower_extension(path);
  bool written = false;
  if (ext == ".png") {
    written = image.save(file, "PNG");
  } else if (ext == ".svg") {
    QSvgGenerator svg;
    svg.setFileName(file);
    svg.setSize(image.size());
    svg.setViewBox(QRect(QPoint(0, 0), image.size()));
    written = paint_image(svg, image);
  } else if (ext == ".pdf") {
    // One page the image's size at 96 pixels per inch, without margins.
    QPdfWriter pdf(file);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(image.size()) * 72.0 / 96.0, QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    written = paint_image(pdf, image);
  } else {
    fail(ErrorKind::Usage, path + ": unknown image type '" + ext + "'; use .png, .svg or .pdf");
  }
  if (!written) fail(ErrorKind::BadInput, path + ": cannot write the image");
}

}  // namespace simjoin::ui
