#include "ui/views/stale_marker.hpp"

namespace simjoin::ui {

StaleMarker::StaleMarker(QWidget* parent) : QLabel(parent) {
  setObjectName("staleMarker");
  setWordWrap(true);
  setStyleSheet("QLabel { background: #fff3c4; color: #5c4400; border: 1px solid #d9b44a; padding: 3px; }");
  hide();
}

void StaleMarker::setReason(const QString& reason) {
  setText(reason);
  setVisible(!reason.isEmpty());
}

}  // namespace simjoin::ui
