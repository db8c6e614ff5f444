#include "ui/step_through/step_canvas.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include <QPainter>

#include "core/points/pca_axes.hpp"
#include "ui/views/palette.hpp"

namespace simjoin::ui {

namespace {
constexpr double kMargin = 24;
constexpr double kPointRadius = 2.5;
const QColor kSearchedCell(46, 160, 67);  // green: searched by the visited cell
const QColor kSkippedCell(230, 120, 20);  // orange: left to their own points by unicomp
const QColor kVisitedCell(20, 20, 20);

QColor color(const Rgb& rgb) { return QColor(rgb[0], rgb[1], rgb[2]); }

// The data's own axes for 2 or 3 dimensions: across, the one that lies most along the first principal
// axis; up, of the others, the one most along the second. Principal axes beyond 3 dimensions.
Axes canvas_axes(const Pca& pca) {
  const std::size_t d = pca.dims;
  if (d < 2 || d > 3) return Axes{true, 0, std::min<std::size_t>(1, d - 1)};
  const auto most_along = [&](std::size_t component, std::size_t other_than) {
    std::size_t best = other_than == 0 ? 1 : 0;
    for (std::size_t j = 0; j < d; ++j)
      if (j != other_than &&
          std::abs(pca.components[component * d + j]) > std::abs(pca.components[component * d + best]))
        best = j;
    return best;
  };
  const std::size_t across = most_along(0, d);
  return Axes{false, across, most_along(1, across)};
}
}  // namespace

StepCanvas::StepCanvas(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 240);
  setAutoFillBackground(true);
  QPalette background = palette();
  background.setColor(QPalette::Window, Qt::white);
  setPalette(background);
}

void StepCanvas::setRun(std::shared_ptr<const StepThrough> run) {
  run_ = std::move(run);
  step_ = 0;
  st_.clear();
  if (run_ && !run_->points.empty()) {
    const PointSet& points = run_->points;
    Pca pca = fit_pca(points);
    orient_axes(pca);
    axes_ = canvas_axes(pca);
    plane_ = view_plane(points, &pca, axes_);
    data_bounds_ = compute_bounds(points);
    st_ = plane_coordinates(points, plane_);
    for (int axis = 0; axis < 2; ++axis) {
      low_[axis] = high_[axis] = st_[axis];
      for (std::size_t i = axis; i < st_.size(); i += 2) {
        low_[axis] = std::min(low_[axis], st_[i]);
        high_[axis] = std::max(high_[axis], st_[i]);
      }
    }
  }
  update();
}

void StepCanvas::setStep(std::size_t step) {
  step_ = step;
  update();
}

bool StepCanvas::drawsCells() const { return run_ && !axes_.principal && !run_->indexed_dims.empty(); }

QRectF StepCanvas::plotArea() const {
  if (run_ && run_->algorithm == "GPU-INLJ") return QRectF(0, 0, width() * 0.5, height());
  return rect();
}

// One scale for both axes, so that cells stay square and distances read the same either way.
QPointF StepCanvas::toWidget(double s, double t) const {
  const QRectF area = plotArea();
  const double span_s = std::max(high_[0] - low_[0], 1e-300), span_t = std::max(high_[1] - low_[1], 1e-300);
  const double scale = std::min((area.width() - 2 * kMargin) / span_s, (area.height() - 2 * kMargin) / span_t);
  const double left = area.left() + (area.width() - scale * span_s) / 2;
  const double bottom = area.top() + (area.height() + scale * span_t) / 2;
  return {left + (s - low_[0]) * scale, bottom - (t - low_[1]) * scale};
}

QPointF StepCanvas::pointAt(std::uint32_t p) const { return toWidget(st_[2 * p], st_[2 * p + 1]); }

// A cell along each drawn axis the grid indexes, across the whole data along one it does not: an
// axis-aligned rectangle on the data's own axes.
QPolygonF StepCanvas::cellPolygon(std::uint32_t cell) const {
  const std::size_t m = run_->indexed_dims.size();
  std::vector<double> low(data_bounds_.low.begin(), data_bounds_.low.end());
  std::vector<double> high(data_bounds_.high.begin(), data_bounds_.high.end());
  for (std::size_t s = 0; s < m; ++s) {
    const auto axis = std::size_t(run_->indexed_dims[s]);
    low[axis] = run_->grid_origin[s] + double(run_->cell_coords[cell * m + s]) * run_->cell_width;
    high[axis] = low[axis] + run_->cell_width;
  }
  QPolygonF polygon;
  const std::size_t a = axes_.a, b = axes_.b;
  for (const auto& [x, y] : {std::pair{low[a], low[b]}, std::pair{high[a], low[b]}, std::pair{high[a], high[b]},
                             std::pair{low[a], high[b]}}) {
    std::vector<double> corner = low;
    corner[a] = x;
    corner[b] = y;
    const auto st = to_plane(plane_, corner.data());
    polygon << toWidget(st[0], st[1]);
  }
  return polygon;
}

void StepCanvas::paintEvent(QPaintEvent*) {
  if (!run_ || st_.empty() || step_ >= run_->steps.size()) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const JoinStep& step = run_->steps[step_];
  if (step.kind == StepKind::CellSearch)
    drawGrid(painter, step);
  else if (step.kind == StepKind::BlockRound)
    drawBlocks(painter, step);
  else
    drawKMeans(painter, step);
}

void StepCanvas::drawKMeans(QPainter& painter, const JoinStep& step) const {
  const bool rounds = step.kind == StepKind::KMeansRound;
  const KMeansRound& round = run_->rounds[rounds ? step.state : run_->rounds.size() - 1];
  const std::size_t n = run_->points.size(), d = run_->points.dims();
  std::vector<QColor> colors(n);
  for (std::size_t p = 0; p < n; ++p) colors[p] = color(category_color(round.membership[p]));
  if (step.kind == StepKind::PartitionJoin)
    for (std::size_t p = 0; p < n; ++p)
      if (round.membership[p] != step.state) colors[p] = color(kDimmed);
  painter.setPen(Qt::NoPen);
  for (std::size_t p = 0; p < n; ++p) {
    painter.setBrush(colors[p]);
    painter.drawEllipse(pointAt(std::uint32_t(p)), kPointRadius, kPointRadius);
  }
  // Copies: a ring in the receiving partition's colour; those of the current step drawn larger.
  if (!rounds) {
    painter.setBrush(Qt::NoBrush);
    for (std::size_t r = 0; r < run_->copy_point.size(); ++r) {
      const std::uint32_t to = run_->copy_partition[r];
      const bool current = to == step.state;
      const bool shown = step.kind == StepKind::Replication ? to <= step.state : current;
      if (!shown) continue;
      painter.setPen(QPen(color(category_color(to)), current ? 2.0 : 1.0));
      const double radius = current ? 3 * kPointRadius : 2 * kPointRadius;
      painter.drawEllipse(pointAt(run_->copy_point[r]), radius, radius);
    }
  }
  // Centroids: their path over the rounds so far, a cross and their number.
  const std::size_t last = rounds ? step.state : run_->rounds.size() - 1;
  for (std::size_t c = 0; c < run_->k; ++c) {
    QPolygonF path;
    for (std::size_t r = 0; r <= last; ++r) {
      const auto xy = to_plane(plane_, &run_->rounds[r].centroids[c * d]);
      path << toWidget(xy[0], xy[1]);
    }
    painter.setPen(QPen(Qt::black, 1.0, Qt::DashLine));
    painter.drawPolyline(path);
    const QPointF at = path.back();
    painter.setPen(QPen(Qt::black, 3.0));
    painter.drawLine(at + QPointF(-7, -7), at + QPointF(7, 7));
    painter.drawLine(at + QPointF(-7, 7), at + QPointF(7, -7));
    painter.setPen(QPen(color(category_color(c)), 1.5));
    painter.drawLine(at + QPointF(-6, -6), at + QPointF(6, 6));
    painter.drawLine(at + QPointF(-6, 6), at + QPointF(6, -6));
    painter.setPen(Qt::black);
    painter.drawText(at + QPointF(8, -8), QString::number(c));
  }
}

void StepCanvas::drawGrid(QPainter& painter, const JoinStep& step) const {
  const auto fill = [&](const std::vector<std::uint32_t>& cells, const QColor& border, Qt::BrushStyle hatch) {
    for (std::uint32_t cell : cells) {
      painter.setPen(QPen(border, 1.5));
      painter.setBrush(QBrush(border, hatch));
      painter.drawPolygon(cellPolygon(cell));
    }
  };
  if (drawsCells()) {
    painter.setPen(QPen(QColor(200, 200, 200), 1.0));
    painter.setBrush(Qt::NoBrush);
    for (std::uint32_t cell = 0; cell < run_->cell_coords.size() / run_->indexed_dims.size(); ++cell)
      painter.drawPolygon(cellPolygon(cell));
    fill(step.searched_cells, kSearchedCell, Qt::BDiagPattern);
    fill(step.skipped_cells, kSkippedCell, Qt::FDiagPattern);
    fill({std::uint32_t(step.state)}, kVisitedCell, Qt::NoBrush);
  }
  painter.setPen(Qt::NoPen);
  const auto dots = [&](const std::vector<std::uint32_t>& points, const QColor& c, double radius) {
    painter.setBrush(c);
    for (std::uint32_t p : points) painter.drawEllipse(pointAt(p), radius, radius);
  };
  std::vector<std::uint32_t> all(run_->points.size());
  for (std::uint32_t p = 0; p < all.size(); ++p) all[p] = p;
  dots(all, color(kDimmed), kPointRadius);
  dots(step.skipped, kSkippedCell, kPointRadius);
  dots(step.searched, kSearchedCell, kPointRadius);
  dots(step.focus, kVisitedCell, kPointRadius + 1);
}

// Left: the points in their chunk's colour. Right: block b's row meets chunk c's column in the round
// (c - b) mod chunks; the pairs met so far are filled, this round's in the block's colour, and the
// mirrored cell of each pair is hatched (the same two chunks, met from the other side).
void StepCanvas::drawBlocks(QPainter& painter, const JoinStep& step) const {
  const std::size_t chunks = run_->chunks, round = step.state;
  painter.setPen(Qt::NoPen);
  for (std::size_t p = 0; p < run_->points.size(); ++p) {
    painter.setBrush(color(category_color(std::uint32_t(p / run_->chunk_points))));
    painter.drawEllipse(pointAt(std::uint32_t(p)), kPointRadius, kPointRadius);
  }
  const double side = std::min(width() * 0.5 - 2 * kMargin, height() - 3 * kMargin);
  const double cell = side / double(chunks);
  const QPointF origin(width() * 0.5 + kMargin, 2 * kMargin);
  const auto cell_rect = [&](std::size_t row, std::size_t column) {
    return QRectF(origin.x() + column * cell, origin.y() + row * cell, cell, cell);
  };
  for (std::size_t b = 0; b < chunks; ++b)
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t met_in = (c + chunks - b) % chunks;  // the round in which block b loads chunk c
      const std::size_t mirror_in = (b + chunks - c) % chunks;
      QBrush brush(Qt::NoBrush);
      if (met_in == round)
        brush = QBrush(color(category_color(std::uint32_t(b))));
      else if (met_in < round)
        brush = QBrush(QColor(200, 200, 200));
      else if (mirror_in <= round)
        brush = QBrush(QColor(170, 170, 170), Qt::BDiagPattern);
      painter.setPen(QPen(QColor(120, 120, 120), 0.5));
      painter.setBrush(brush);
      painter.drawRect(cell_rect(b, c));
    }
  painter.setPen(Qt::black);
  painter.drawText(QRectF(origin.x(), origin.y() - 1.6 * kMargin, side, kMargin), Qt::AlignCenter,
                   tr("chunk in shared memory →"));
  painter.save();
  painter.translate(origin.x() - 0.4 * kMargin, origin.y() + side / 2);
  painter.rotate(-90);
  painter.drawText(QRectF(-side / 2, -kMargin, side, kMargin), Qt::AlignCenter, tr("block (its own chunk) →"));
  painter.restore();
}

}  // namespace simjoin::ui
