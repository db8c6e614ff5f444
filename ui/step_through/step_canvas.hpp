#pragma once
// Draws one step of a step-through (join_steps.hpp) with QPainter: the k-means rounds with each
// centroid's path, the copies replication made, the partition being joined, or the grid cell being
// visited with the cells it searches and those unicomp skips, or GPU-INLJ's round: the points in their
// chunk's colour beside the block-by-chunk matrix of the chunks met so far. Data of 2 or 3 dimensions
// is drawn on two of its own axes (those that lie most along its first two principal axes, so a lat,lon
// file shows lon across), where the grid's cells are the engine's own, axis-aligned; other data on its
// first two principal axes.
#include <memory>
#include <vector>

#include <QPolygonF>
#include <QWidget>

#include "ui/step_through/join_steps.hpp"
#include "ui/views/view_plane.hpp"

namespace simjoin::ui {

class StepCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit StepCanvas(QWidget* parent = nullptr);
  void setRun(std::shared_ptr<const StepThrough> run);
  void setStep(std::size_t step);
  // Whether the grid's cells are drawn (data drawn on its own axes: a cell is a square where the grid
  // indexes both, a strip across the data along an axis it does not index).
  bool drawsCells() const;
  const Axes& axes() const { return axes_; }

  // Where point p of the run is drawn, in widget pixels (x right, y down).
  QPointF pointAt(std::uint32_t p) const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  // Where the points are drawn: the whole widget, or its left part beside GPU-INLJ's matrix.
  QRectF plotArea() const;
  QPointF toWidget(double s, double t) const;
  void drawKMeans(QPainter& painter, const JoinStep& step) const;
  void drawGrid(QPainter& painter, const JoinStep& step) const;
  void drawBlocks(QPainter& painter, const JoinStep& step) const;
  QPolygonF cellPolygon(std::uint32_t cell) const;

  std::shared_ptr<const StepThrough> run_;
  ViewPlane plane_;
  Axes axes_;
  Bounds64 data_bounds_;    // of the run's points, in their own coordinates
  std::vector<double> st_;  // plane coordinates of the run's points, n x 2
  double low_[2] = {0, 0}, high_[2] = {1, 1};
  std::size_t step_ = 0;
};

}  // namespace simjoin::ui
