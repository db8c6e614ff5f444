#include "ui/export/image_size_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

namespace simjoin::ui {

namespace {
QSpinBox* spin_box(int low, int high, const QString& suffix) {
  auto* box = new QSpinBox;
  box->setRange(low, high);
  box->setSuffix(suffix);
  return box;
}
}  // namespace

ImageSizeDialog::ImageSizeDialog(const ImageSize& initial, QWidget* parent)
    : QDialog(parent),
      width_(spin_box(kMinImageSide, kMaxImageSide, tr(" px"))),
      height_(spin_box(kMinImageSide, kMaxImageSide, tr(" px"))),
      dpi_(spin_box(kMinDpi, kMaxDpi, tr(" dpi"))),
      printed_(new QLabel) {
  setWindowTitle(tr("Image size"));
  auto* pixels = new QHBoxLayout;
  pixels->addWidget(width_);
  pixels->addWidget(new QLabel(tr("x")));
  pixels->addWidget(height_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Size"), pixels);
  form->addRow(tr("Resolution"), dpi_);
  form->addRow(tr("Printed size"), printed_);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  for (QSpinBox* box : {width_, height_, dpi_})
    connect(box, &QSpinBox::valueChanged, this, &ImageSizeDialog::showPrintedSize);
  setImageSize(initial);
}

void ImageSizeDialog::setImageSize(const ImageSize& size) {
  width_->setValue(size.pixels.width());
  height_->setValue(size.pixels.height());
  dpi_->setValue(size.dpi);
  showPrintedSize();
}

ImageSize ImageSizeDialog::imageSize() const { return {QSize(width_->value(), height_->value()), dpi_->value()}; }

void ImageSizeDialog::showPrintedSize() {
  const ImageSize size = imageSize();
  printed_->setText(tr("%1 x %2 in (%3 x %4 cm)")
                        .arg(double(size.pixels.width()) / size.dpi, 0, 'f', 2)
                        .arg(double(size.pixels.height()) / size.dpi, 0, 'f', 2)
                        .arg(2.54 * size.pixels.width() / size.dpi, 0, 'f', 1)
                        .arg(2.54 * size.pixels.height() / size.dpi, 0, 'f', 1));
}

std::optional<ImageSize> ask_image_size(QWidget* parent, const QString& settings_key, const ImageSize& fallback) {
  QSettings settings;
  const ImageSize last{settings.value(settings_key + "/pixels", fallback.pixels).toSize(),
                       settings.value(settings_key + "/dpi", fallback.dpi).toInt()};
  ImageSizeDialog dialog(last, parent);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  const ImageSize chosen = dialog.imageSize();
  settings.setValue(settings_key + "/pixels", chosen.pixels);
  settings.setValue(settings_key + "/dpi", chosen.dpi);
  return chosen;
}

}  // namespace simjoin::ui
