#include "ui/charts/chart_export_button.hpp"

#include <QChart>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

#include "core/base/error.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/export/image_size_dialog.hpp"

namespace simjoin::ui {

QString save_with_dialog(QWidget* parent, const QString& title, const QString& suggested, const QString& filter,
                         const std::function<void(const std::string&)>& save) {
  QSettings settings;
  const QString folder = settings.value("exportDir", QDir::homePath()).toString();
  const QString path = QFileDialog::getSaveFileName(parent, title, QDir(folder).filePath(suggested), filter);
  if (path.isEmpty()) return {};
  settings.setValue("exportDir", QFileInfo(path).absolutePath());
  try {
    save(path.toStdString());
  } catch (const Error& error) {
    QMessageBox::warning(parent, title, QString::fromStdString(error.what()));
    return {};
  }
  return path;
}

QToolButton* chart_export_button(QChart* chart, std::function<void(const std::string&)> write_csv, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setText(QObject::tr("Export"));
  button->setToolTip(QObject::tr("Save the chart as an image, or its data as CSV"));
  button->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(button);
  menu->addAction(QObject::tr("Chart as image (PNG, SVG, PDF)..."), button, [chart, button] {
    const std::optional<ImageSize> size = ask_image_size(button, "chartExport", ImageSize{});
    if (!size) return;
    save_with_dialog(button, QObject::tr("Save chart"), "chart.png", QObject::tr("Images (*.png *.svg *.pdf)"),
                     [chart, size](const std::string& path) { save_chart_image(*chart, path, *size); });
  });
  menu->addAction(QObject::tr("Chart data as CSV..."), button, [write_csv, button] {
    save_with_dialog(button, QObject::tr("Save chart data"), "chart.csv", QObject::tr("CSV (*.csv)"), write_csv);
  });
  button->setMenu(menu);
  return button;
}

}  // namespace simjoin::ui
