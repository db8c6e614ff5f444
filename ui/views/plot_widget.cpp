#include "ui/views/plot_widget.hpp"

#include <algorithm>

#include <QPainter>

#include "ui/views/view_figure.hpp"

namespace simjoin::ui {

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 200); }

void PlotWidget::setLayers(const Layers* layers) {
  layers_ = layers;
  update();
}

void PlotWidget::resetView() {
  region_ = QRectF();
  update();
}

double PlotWidget::aspect() const { return double(std::max(1, width())) / std::max(1, height()); }

QRectF PlotWidget::shownRegion() const {
  if (!region_.isEmpty()) return fit_aspect(drawable_region(region_), aspect());
  return layers_ ? fit_aspect(drawable_region(layers_bounds(*layers_)), aspect()) : QRectF();
}

void PlotWidget::focusOn(double x, double y, double half_height) {
  const double fitted = layers_ ? fit_aspect(layers_bounds(*layers_), aspect()).height() / 2 : half_height;
  const double half = half_height > 0 ? std::min(fitted, half_height) : fitted;
  region_ = QRectF(x - half * aspect(), y - half, 2 * half * aspect(), 2 * half);
  update();
}

void PlotWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  if (!layers_ || height() <= 0) return;
  painter.setRenderHint(QPainter::Antialiasing);
  paint_view_plot(painter, QRectF(rect()), shownRegion(), *layers_, 20000);
}

}  // namespace simjoin::ui
