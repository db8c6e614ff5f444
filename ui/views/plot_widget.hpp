#pragma once
// The 2-D view drawn with QPainter where OpenGL cannot run (the offscreen platform, a server
// without GLX): the same layers as the VTK scene, fitted to the widget, for screenshots.
#include <QWidget>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

class PlotWidget : public QWidget {
 public:
  explicit PlotWidget(QWidget* parent = nullptr);
  // `layers` must outlive the widget or the next call.
  void setLayers(const Layers* layers);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const Layers* layers_ = nullptr;
};

}  // namespace simjoin::ui
