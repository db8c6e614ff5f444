#pragma once
// Asks for an exported figure's size in pixels and its dpi, showing the printed size they make; the
// last choice is remembered for the next export of the same kind.
#include <QDialog>

#include <optional>

#include "ui/export/image_size.hpp"

class QLabel;
class QSpinBox;

namespace simjoin::ui {

class ImageSizeDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ImageSizeDialog(const ImageSize& initial, QWidget* parent = nullptr);
  void setImageSize(const ImageSize& size);
  ImageSize imageSize() const;

 private:
  void showPrintedSize();

  QSpinBox* width_;
  QSpinBox* height_;
  QSpinBox* dpi_;
  QLabel* printed_;
};

// Shows the dialog starting from the last size chosen under `settings_key` (else `fallback`);
// nothing when cancelled.
std::optional<ImageSize> ask_image_size(QWidget* parent, const QString& settings_key, const ImageSize& fallback);

}  // namespace simjoin::ui
