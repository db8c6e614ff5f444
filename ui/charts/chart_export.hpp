#pragma once
// Charts to files: PNG, SVG or PDF by the extension, at a size and resolution (image_size.hpp), with
// the chart's title as the document's. Works without a display (QT_QPA_PLATFORM=offscreen) and for
// charts not shown in any view. Throws Error(Usage) for another extension and Error(BadInput) for a
// path that cannot be written.
#include <QChart>

#include <string>

#include "ui/charts/chart_figure.hpp"
#include "ui/export/image_size.hpp"

namespace simjoin::ui {

// Returns where the figure put its parts (chart_figure.hpp); the chart itself is not changed.
ChartFigureLayout save_chart_image(const QChart& chart, const std::string& path, const ImageSize& size = {});

}  // namespace simjoin::ui
