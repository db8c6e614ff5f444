#include "ui/charts/chart_copy.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <map>

namespace simjoin::ui {

namespace {

// What every axis kind has: its title, what it draws and with which pens.
void copy_axis_look(const QAbstractAxis& from, QAbstractAxis& to) {
  to.setTitleText(from.titleText());
  to.setTitleVisible(from.isTitleVisible());
  to.setLabelsVisible(from.labelsVisible());
  to.setLabelsAngle(from.labelsAngle());
  to.setLineVisible(from.isLineVisible());
  to.setLinePen(from.linePen());
  to.setGridLineVisible(from.isGridLineVisible());
  to.setGridLinePen(from.gridLinePen());
  to.setMinorGridLineVisible(from.isMinorGridLineVisible());
  to.setVisible(from.isVisible());
}

QAbstractAxis* copy_axis(const QAbstractAxis& axis) {
  QAbstractAxis* copy = nullptr;
  if (const auto* value = qobject_cast<const QValueAxis*>(&axis)) {
    auto* to = new QValueAxis;
    to->setLabelFormat(value->labelFormat());
    to->setRange(value->min(), value->max());
    to->setTickCount(value->tickCount());
    to->setMinorTickCount(value->minorTickCount());
    copy = to;
  } else if (const auto* log = qobject_cast<const QLogValueAxis*>(&axis)) {
    auto* to = new QLogValueAxis;
    to->setLabelFormat(log->labelFormat());
    to->setBase(log->base());
    to->setRange(log->min(), log->max());
    to->setMinorTickCount(log->minorTickCount());
    copy = to;
  } else if (const auto* categories = qobject_cast<const QBarCategoryAxis*>(&axis)) {
    auto* to = new QBarCategoryAxis;
    to->append(const_cast<QBarCategoryAxis*>(categories)->categories());  // not const in Qt 6.4
    copy = to;
  }
  if (copy) copy_axis_look(axis, *copy);
  return copy;
}

QXYSeries* copy_xy(const QXYSeries& series) {
  QXYSeries* copy = nullptr;
  if (const auto* scatter = qobject_cast<const QScatterSeries*>(&series)) {
    auto* to = new QScatterSeries;
    to->setMarkerShape(scatter->markerShape());
    to->setMarkerSize(scatter->markerSize());
    copy = to;
  } else {
    copy = new QLineSeries;
  }
  copy->append(series.points());
  copy->setPen(series.pen());
  copy->setBrush(series.brush());
  copy->setPointsVisible(series.pointsVisible());
  return copy;
}

QAbstractBarSeries* copy_bars(const QAbstractBarSeries& series) {
  QAbstractBarSeries* copy = nullptr;
  if (qobject_cast<const QStackedBarSeries*>(&series))
    copy = new QStackedBarSeries;
  else
    copy = new QBarSeries;
  copy->setBarWidth(series.barWidth());
  for (const QBarSet* set : series.barSets()) {
    auto* to = new QBarSet(set->label());
    for (int i = 0; i < set->count(); ++i) to->append(set->at(i));
    to->setPen(set->pen());
    to->setBrush(set->brush());
    copy->append(to);
  }
  return copy;
}

QAbstractSeries* copy_series(const QAbstractSeries& series) {
  QAbstractSeries* copy = nullptr;
  if (const auto* xy = qobject_cast<const QXYSeries*>(&series))
    copy = copy_xy(*xy);
  else if (const auto* bars = qobject_cast<const QAbstractBarSeries*>(&series))
    copy = copy_bars(*bars);
  if (!copy) return nullptr;
  copy->setName(series.name());
  copy->setVisible(series.isVisible());
  copy->setOpacity(series.opacity());
  for (const QByteArray& name : series.dynamicPropertyNames()) copy->setProperty(name, series.property(name));
  return copy;
}

}  // namespace

std::unique_ptr<QChart> copy_chart(const QChart& chart) {
  auto copy = std::make_unique<QChart>();
  copy->setTheme(chart.theme());
  copy->setTitle(chart.title());
  copy->setBackgroundBrush(chart.backgroundBrush());
  copy->setPlotAreaBackgroundVisible(chart.isPlotAreaBackgroundVisible());
  copy->setPlotAreaBackgroundBrush(chart.plotAreaBackgroundBrush());
  copy->legend()->setVisible(chart.legend()->isVisible());
  std::map<const QAbstractAxis*, QAbstractAxis*> axes;
  for (QAbstractAxis* axis : chart.axes())
    if (QAbstractAxis* to = copy_axis(*axis)) {
      copy->addAxis(to, axis->alignment());
      axes[axis] = to;
    }
  for (QAbstractSeries* series : chart.series()) {
    QAbstractSeries* to = copy_series(*series);
    if (!to) continue;
    copy->addSeries(to);
    for (QAbstractAxis* axis : series->attachedAxes())
      if (axes.count(axis)) to->attachAxis(axes[axis]);
  }
  return copy;
}

}  // namespace simjoin::ui
