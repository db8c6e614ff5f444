#include "ui/charts/interactive_chart_view.hpp"

#include <QKeyEvent>
#include <QMouseEvent>

namespace simjoin::ui {

InteractiveChartView::InteractiveChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
  setRubberBand(QChartView::RectangleRubberBand);
  setRenderHint(QPainter::Antialiasing);
  setFocusPolicy(Qt::StrongFocus);
}

void InteractiveChartView::resetZoom() {
  if (chart()) chart()->zoomReset();
}

void InteractiveChartView::mouseReleaseEvent(QMouseEvent* event) {
  // QChartView zooms out one step on right click; a full reset is what users expect here.
  if (event->button() == Qt::RightButton) {
    resetZoom();
    event->accept();
    return;
  }
  QChartView::mouseReleaseEvent(event);
}

void InteractiveChartView::mouseDoubleClickEvent(QMouseEvent* event) {
  resetZoom();
  event->accept();
}

void InteractiveChartView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    resetZoom();
    event->accept();
    return;
  }
  QChartView::keyPressEvent(event);
}

}  // namespace simjoin::ui
