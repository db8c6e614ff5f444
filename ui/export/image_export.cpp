#include "ui/export/image_export.hpp"

#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "core/base/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/file_io.hpp"

namespace simjoin::ui {

namespace {
// An image file written through AtomicFile (core/io/atomic_file.hpp): a temporary beside `path`,
// renamed onto it by commit(), and removed by an error, a cancel or a signal handler, which an older
// file of that name survives. The QFile writes to the temporary's descriptor.
class AtomicImageFile {
 public:
  explicit AtomicImageFile(const QString& path) : atomic_(path.toStdString()) {
    file_.open(atomic_.descriptor(), QIODevice::WriteOnly, QFileDevice::DontCloseHandle);
  }
  QFile& device() { return file_; }
  bool commit() {
    if (!file_.flush() || file_.error() != QFileDevice::NoError) return false;
    file_.close();
    atomic_.commit();
    return true;
  }
  QString errorString() const { return file_.errorString(); }

 private:
  AtomicFile atomic_;
  QFile file_;
};

bool paint_device(QPaintDevice& device, const QRectF& target,
                  const std::function<void(QPainter&, const QRectF&)>& paint) {
  QPainter painter;
  if (!painter.begin(&device)) return false;
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::SmoothPixmapTransform);
  paint(painter, target);
  return painter.end();
}

// Draws the figure of type `ext` into `file` (open for writing); false when the painter failed.
bool paint_figure(QIODevice& file, const std::string& ext, const ImageSize& size, const QString& title,
                  const std::function<void(QPainter& painter, const QRectF& target)>& paint) {
  const QRectF target(QPointF(0, 0), QSizeF(size.pixels));
  if (ext == ".png") {
    QImage image(size.pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    image.setDotsPerMeterX(qRound(size.dots_per_meter()));
    image.setDotsPerMeterY(qRound(size.dots_per_meter()));
    return paint_device(image, target, paint) && image.save(&file, "PNG");
  }
  if (ext == ".svg") {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setTitle(title);
    svg.setSize(size.pixels);
    svg.setResolution(size.dpi);
    svg.setViewBox(target);
    return paint_device(svg, target, paint);
  }
  QPdfWriter pdf(&file);
  pdf.setTitle(title);
  pdf.setResolution(size.dpi);
  pdf.setPageSize(QPageSize(QSizeF(size.pixels) * 72.0 / size.dpi, QPageSize::Point));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  return paint_device(pdf, target, paint);
}
}  // namespace

void paint_to_file(const std::string& path, const ImageSize& size, const QString& title,
                   const std::function<void(QPainter& painter, const QRectF& target)>& paint) {
  const std::string ext = lower_extension(path);
  if (ext != ".png" && ext != ".svg" && ext != ".pdf")
    fail(ErrorKind::Usage, path + ": unknown image type '" + ext + "'; use .png, .svg or .pdf");
  // Written under a temporary name and renamed once complete: a failed export (or one whose painting
  // throws) leaves an older file of that name as it was.
  AtomicImageFile file(QString::fromStdString(path));
  if (!paint_figure(file.device(), ext, size, title, paint) || !file.commit())
    fail(ErrorKind::BadInput, path + ": cannot write the image" +
                                  (file.errorString().isEmpty() ? "" : ": " + file.errorString().toStdString()));
}

bool save_image_file(const QImage& image, const QString& path) {
  try {
    AtomicImageFile file(path);
    const QByteArray format = QFileInfo(path).suffix().toLatin1();
    return image.save(&file.device(), format.isEmpty() ? nullptr : format.constData()) && file.commit();
  } catch (const Error&) {
    return false;  // the directory cannot be written
  }
}

void save_image(const QImage& image, const std::string& path, int dpi) {
  paint_to_file(path, {image.size(), dpi}, {},
                [&image](QPainter& painter, const QRectF& target) { painter.drawImage(target, image); });
}

}  // namespace simjoin::ui
