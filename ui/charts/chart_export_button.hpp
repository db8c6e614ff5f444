#pragma once
// An "Export" button for a chart: the chart as PNG, SVG or PDF at a chosen size and dpi, and its
// data as CSV (written by `write_csv`, which knows the chart's columns), each through a save dialog.
#include <QToolButton>

#include <functional>
#include <string>

class QChart;

namespace simjoin::ui {

QToolButton* chart_export_button(QChart* chart, std::function<void(const std::string&)> write_csv, QWidget* parent);

// Asks for a file name (remembering the folder) and calls `save` with it; an Error is shown to the
// user. Returns the path written, empty when cancelled or failed.
QString save_with_dialog(QWidget* parent, const QString& title, const QString& suggested, const QString& filter,
                         const std::function<void(const std::string&)>& save);

}  // namespace simjoin::ui
