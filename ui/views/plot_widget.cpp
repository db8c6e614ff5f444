#include "ui/views/plot_widget.hpp"

#include <QPainter>

#include "ui/views/view_figure.hpp"

namespace simjoin::ui {

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 200); }

void PlotWidget::setLayers(const Layers* layers) {
  layers_ = layers;
  update();
}

void PlotWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  if (!layers_ || height() <= 0) return;
  painter.setRenderHint(QPainter::Antialiasing);
  const QRectF frame(rect());
  paint_view_plot(painter, frame, fit_aspect(layers_bounds(*layers_), frame.width() / frame.height()), *layers_,
                  20000);
}

}  // namespace simjoin::ui
