#include "ui/charts/chart_export.hpp"

#include <QApplication>
#include <QGraphicsScene>
#include <QPainter>

#include <memory>

#include "ui/charts/chart_caption.hpp"
#include "ui/export/image_export.hpp"

namespace simjoin::ui {

namespace {
// Lays the chart out at `layout` and paints it scaled into `target`. A chart in no scene gets a
// temporary one; a chart shown in a view is given its size back.
void render_chart(QChart& chart, const QSizeF& layout, QPainter& painter, const QRectF& target) {
  std::unique_ptr<QGraphicsScene> own_scene;
  if (!chart.scene()) {
    own_scene = std::make_unique<QGraphicsScene>();
    own_scene->addItem(&chart);
  }
  const QRectF old_geometry = chart.geometry();
  chart.setGeometry(QRectF(QPointF(0, 0), layout));
  QApplication::processEvents();  // lets the chart lay out its axes and legend at the new size
  chart.scene()->render(&painter, target, chart.sceneBoundingRect());
  if (own_scene)
    own_scene->removeItem(&chart);
  else
    chart.setGeometry(old_geometry);
}
}  // namespace

void save_chart_image(QChart& chart, const std::string& path, const ImageSize& size) {
  paint_to_file(path, size, plain_title(chart), [&](QPainter& painter, const QRectF& target) {
    render_chart(chart, size.layout(), painter, target);
  });
}

}  // namespace simjoin::ui
