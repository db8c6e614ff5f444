#pragma once
// An "Export" button for a chart: the chart as PNG or SVG and its plotted data as CSV, each through
// a save dialog. Callers may add further actions to the button's menu.
#include <QToolButton>

#include <functional>
#include <string>

class QChart;

namespace simjoin::ui {

QToolButton* chart_export_button(QChart* chart, QWidget* parent);

// Asks for a file name (remembering the folder) and calls `save` with it; an Error is shown to the
// user. Returns the path written, empty when cancelled or failed.
QString save_with_dialog(QWidget* parent, const QString& title, const QString& suggested,
                         const QString& filter, const std::function<void(const std::string&)>& save);

}  // namespace simjoin::ui
