#pragma once
// The 2-D view drawn with QPainter where OpenGL cannot run (the offscreen platform, a server
// without GLX): the same layers as the VTK scene, fitted to the widget or zoomed to a region (a
// picked point's neighbourhood, as VtkViewWidget::focusOn), for screenshots and figures.
#include <QRectF>
#include <QWidget>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

class PlotWidget : public QWidget {
 public:
  explicit PlotWidget(QWidget* parent = nullptr);
  // `layers` must outlive the widget or the next call.
  void setLayers(const Layers* layers);
  // Shows all the layers again.
  void resetView();
  // Centres the view on (x, y) and zooms in until `half_height` view units fill half its height
  // (never out beyond the whole data).
  void focusOn(double x, double y, double half_height);
  // The view coordinates shown: empty while the view shows all the layers.
  QRectF region() const { return region_; }
  // The view coordinates painted at the widget's aspect.
  QRectF shownRegion() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  double aspect() const;

  const Layers* layers_ = nullptr;
  QRectF region_;
};

}  // namespace simjoin::ui
