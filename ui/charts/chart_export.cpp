#include "ui/charts/chart_export.hpp"

#include <QPainter>

#include "ui/charts/chart_caption.hpp"
#include "ui/export/image_export.hpp"

namespace simjoin::ui {

ChartFigureLayout save_chart_image(const QChart& chart, const std::string& path, const ImageSize& size) {
  ChartFigureLayout placed;
  paint_to_file(path, size, plain_title(chart), [&](QPainter& painter, const QRectF& target) {
    placed = paint_chart_figure(chart, painter, target, size.layout());
  });
  return placed;
}

}  // namespace simjoin::ui
