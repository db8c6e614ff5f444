#include "ui/export/image_export.hpp"

#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "core/error.hpp"
#include "core/io/file_io.hpp"

namespace simjoin::ui {

namespace {
bool paint_device(QPaintDevice& device, const QRectF& target,
                  const std::function<void(QPainter&, const QRectF&)>& paint) {
  QPainter painter;
  if (!painter.begin(&device)) return false;
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::SmoothPixmapTransform);
  paint(painter, target);
  return painter.end();
}
}  // namespace

void paint_to_file(const std::string& path, const ImageSize& size, const QString& title,
                   const std::function<void(QPainter& painter, const QRectF& target)>& paint) {
  const QString file = QString::fromStdString(path);
  const std::string ext = lower_extension(path);
  const QRectF target(QPointF(0, 0), QSizeF(size.pixels));
  bool written = false;
  if (ext == ".png") {
    QImage image(size.pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    image.setDotsPerMeterX(qRound(size.dots_per_meter()));
    image.setDotsPerMeterY(qRound(size.dots_per_meter()));
    written = paint_device(image, target, paint) && image.save(file, "PNG");
  } else if (ext == ".svg") {
    QSvgGenerator svg;
    svg.setFileName(file);
    svg.setTitle(title);
    svg.setSize(size.pixels);
    svg.setResolution(size.dpi);
    svg.setViewBox(target);
    written = paint_device(svg, target, paint);
  } else if (ext == ".pdf") {
    QPdfWriter pdf(file);
    pdf.setTitle(title);
    pdf.setResolution(size.dpi);
    pdf.setPageSize(QPageSize(QSizeF(size.pixels) * 72.0 / size.dpi, QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    written = paint_device(pdf, target, paint);
  } else {
    fail(ErrorKind::Usage, path + ": unknown image type '" + ext + "'; use .png, .svg or .pdf");
  }
  if (!written) fail(ErrorKind::BadInput, path + ": cannot write the image");
}

void save_image(const QImage& image, const std::string& path, int dpi) {
  paint_to_file(path, {image.size(), dpi}, {},
                [&image](QPainter& painter, const QRectF& target) { painter.drawImage(target, image); });
}

}  // namespace simjoin::ui
