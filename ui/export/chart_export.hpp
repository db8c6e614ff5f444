#pragma once
// Charts to files: PNG (QImage), SVG (QSvgGenerator), PDF (QPdfWriter) and the plotted data as CSV. Works without a
// display (QT_QPA_PLATFORM=offscreen) and for charts not shown in any view. Failures throw
// Error(Usage) naming the path.
#include <QChart>
#include <QSize>

#include <string>

namespace simjoin::ui {

inline constexpr QSize kDefaultChartSize{1000, 700};

void save_chart_png(QChart& chart, const std::string& path, QSize size = kDefaultChartSize);
void save_chart_svg(QChart& chart, const std::string& path, QSize size = kDefaultChartSize);
void save_chart_pdf(QChart& chart, const std::string& path, QSize size = kDefaultChartSize);
// PNG, SVG or PDF by the extension (.png, .svg, .pdf); Error(Usage) for any other.
void save_chart_image(QChart& chart, const std::string& path, QSize size = kDefaultChartSize);

// One row per plotted value: "series,x,y" with exact numbers; for bar charts x is the category.
// Hidden line series are written too (hiding is a display choice).
void write_chart_csv(const QChart& chart, const std::string& path);

}  // namespace simjoin::ui
