#pragma once
// Clicking a legend entry hides or shows its series; the entry stays, dimmed while hidden.
#include <QObject>

class QChart;

namespace simjoin::ui {

class LegendToggle : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;
  // Connects every legend marker of the chart; call again after adding series (markers already
  // connected are not connected twice).
  void attach(QChart& chart);

 private slots:
  void markerClicked();
};

}  // namespace simjoin::ui
