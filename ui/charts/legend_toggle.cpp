#include "ui/charts/legend_toggle.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>

namespace simjoin::ui {

void LegendToggle::attach(QChart& chart) {
  for (QLegendMarker* marker : chart.legend()->markers())
    connect(marker, &QLegendMarker::clicked, this, &LegendToggle::markerClicked, Qt::UniqueConnection);
}

void LegendToggle::markerClicked() {
  auto* marker = qobject_cast<QLegendMarker*>(sender());
  if (!marker || !marker->series()) return;
  QAbstractSeries* series = marker->series();
  series->setVisible(!series->isVisible());
  // Hiding a series hides its marker too; keep it so that it can be clicked again.
  marker->setVisible(true);
  QColor label = marker->labelBrush().color();
  label.setAlphaF(series->isVisible() ? 1.0 : 0.4);
  marker->setLabelBrush(label);
}

}  // namespace simjoin::ui
