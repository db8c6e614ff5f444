#pragma once
// A live line chart of sweep results: one series per engine (and per k or eps when both vary),
// x = eps or k, y = the chosen metric; the thesis' Figures 5.8-5.15. Times are medians with min-max
// bars. The x axis follows the sweep's spacing (log or linear), the y axis turns logarithmic where
// the data spans decades. An engine that ignores k is one dashed line, named so. The title names
// the data, parameters, engines, timing and machine. Hovering a point shows its exact values;
// clicking a legend entry hides its series.
#include <QChart>
#include <QLineSeries>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ui/charts/legend_toggle.hpp"
#include "ui/charts/sweep_runner.hpp"

namespace simjoin::ui {

enum class SweepMetric { Seconds, Pairs, ReplicatedPoints, ComparedRatio, LargestPartition, SmallestPartition };
enum class SweepAxis { Eps, K };

QString metric_title(SweepMetric metric);
// The metric's value for a point; nothing for partition sizes of engines without partitions.
std::optional<double> metric_value(const SweepPoint& point, SweepMetric metric);
// "seconds", "pairs", "replicated", "compared-ratio", "largest-partition", "smallest-partition";
// throws Error(Usage) listing them for anything else.
SweepMetric parse_metric(const std::string& name);

class SweepChart : public QChart {
  Q_OBJECT

 public:
  explicit SweepChart(QGraphicsItem* parent = nullptr);

  // Clears the chart for a new sweep. The x axis is k when only k varies, else eps.
  void begin(const SweepSpec& spec);
  void addPoint(const SweepPoint& point);
  void setMetric(SweepMetric metric);
  SweepMetric metric() const { return metric_; }
  SweepAxis xAxis() const { return x_axis_; }
  const std::vector<SweepPoint>& points() const { return points_; }
  // Runs drawn over all series.
  int plottedPointCount() const;
  bool xLogarithmic() const { return x_log_; }
  // The min-max bar of each time drawn, with the series it belongs to.
  const std::map<const QLineSeries*, std::vector<QLineSeries*>>& rangeBars() const { return bars_; }

 private:
  void rebuild();
  void plot(std::size_t index);
  void fitAxes();
  QLineSeries* seriesFor(const SweepPoint& point);
  void addRangeBar(QLineSeries* series, const SweepPoint& point);
  void setCaption();
  QString pointText(const SweepPoint& point) const;
  void showTooltip(QLineSeries* series, const QPointF& at);

  SweepMetric metric_ = SweepMetric::Seconds;
  SweepAxis x_axis_ = SweepAxis::Eps;
  bool name_by_k_ = false;    // series also split by k (eps on x, several k)
  bool name_by_eps_ = false;  // series also split by eps (k on x, several eps)
  bool several_k_ = false;
  bool x_log_ = false;
  double x_first_ = 0, x_last_ = 0;  // the sweep's x range
  SweepSpec spec_;                   // for the caption (no points)
  std::vector<SweepPoint> points_;
  std::map<QString, QLineSeries*> series_;
  std::map<const QLineSeries*, std::vector<std::size_t>> members_;  // point indices, by x
  std::map<const QLineSeries*, std::vector<QLineSeries*>> bars_;
  LegendToggle legend_toggle_;
};

}  // namespace simjoin::ui
