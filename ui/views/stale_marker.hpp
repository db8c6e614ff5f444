#pragma once
// A banner over results that no longer match the parameters: hidden while they do, else a
// highlighted line saying why (ui/run/run_staleness.hpp).
#include <QLabel>

namespace simjoin::ui {

class StaleMarker : public QLabel {
  Q_OBJECT

 public:
  explicit StaleMarker(QWidget* parent = nullptr);
  // Empty: current, hidden.
  void setReason(const QString& reason);
};

}  // namespace simjoin::ui
