#include "ui/charts/chart_export.hpp"

#include <QPainter>

#include "ui/charts/chart_caption.hpp"
#include "ui/charts/chart_figure.hpp"
#include "ui/export/image_export.hpp"

namespace simjoin::ui {

void save_chart_image(QChart& chart, const std::string& path, const ImageSize& size) {
  paint_to_file(path, size, plain_title(chart), [&](QPainter& painter, const QRectF& target) {
    paint_chart_figure(chart, painter, target, size.layout());
  });
}

}  // namespace simjoin::ui
