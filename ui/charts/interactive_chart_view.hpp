#pragma once
// A chart view with rubber-band zoom (drag a rectangle) and reset (right click, double click,
// Escape or resetZoom()).
#include <QChartView>

namespace simjoin::ui {

class InteractiveChartView : public QChartView {
  Q_OBJECT

 public:
  explicit InteractiveChartView(QChart* chart, QWidget* parent = nullptr);

 public slots:
  void resetZoom();

 protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace simjoin::ui
