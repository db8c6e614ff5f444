#pragma once
// The 2-D view: chosen axes (principal components or raw dimensions), the view mode's layers drawn
// through VTK, a legend, notes, partition selection and point picking with a tooltip.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <QFuture>
#include <QWidget>

#include "core/join/run_stats.hpp"
#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"
#include "ui/views/figure_axes.hpp"
#include "ui/views/grid_cells.hpp"
#include "ui/views/view_figure.hpp"
#include "ui/views/view_layers.hpp"

class QComboBox;
template <typename T>
class QFutureWatcher;
class QLabel;
class QListWidget;
class QPushButton;
class QTimer;
class QToolButton;

namespace simjoin::ui {

class PlotWidget;
class Scene2d;
class StaleMarker;
class VtkViewWidget;

class ProjectionView : public QWidget {
  Q_OBJECT

 public:
  explicit ProjectionView(QWidget* parent = nullptr);
  ~ProjectionView() override;

  void setPoints(std::shared_ptr<const PointSet> points, std::shared_ptr<const Pca> pca);
  void setResult(std::shared_ptr<const RunResult> result);
  void setEps(double eps);
  void setMode(ViewMode mode);
  void setAxes(const Axes& axes);
  void setPalette(PaletteKind palette);
  void selectPartition(std::optional<std::uint32_t> partition);
  // Picks the displayed point nearest to a view position (within a few pixels); updates the view.
  std::optional<std::uint32_t> pickAt(QPointF world);
  // Picks point `id` (none: clears the pick); false, picking nothing new, for an id outside the points.
  bool pick(std::optional<std::uint32_t> id);
  std::optional<std::uint32_t> picked() const { return picked_; }
  // Tooltip text for a point: id, coordinates, partition, and for the picked point what the view
  // says it did (its search, its copies), else its neighbours within eps.
  QString describePoint(std::uint32_t id) const;

  // Says over the view why what it shows no longer matches the parameters (empty: it does).
  void setStale(const QString& reason);
  StaleMarker* staleMarker() const { return stale_; }
  // The legend of the drawing shown once any under way has finished.
  QListWidget* legend() {
    settle();
    return legend_;
  }
  // The legend beside the view, collapsed by the Legend button (its state: --legend shown|hidden).
  void setLegendShown(bool shown);
  bool legendShown() const;
  QComboBox* xAxisBox() const { return x_axis_; }
  QComboBox* yAxisBox() const { return y_axis_; }

  // The layers shown, once any drawing under way has finished (see settle()).
  const Layers& layers() {
    settle();
    return layers_;
  }
  // The layers are built on a worker thread, so that the window answers at any data size; this waits
  // for the drawing under way (and one asked for meanwhile) and shows it. Exports, screenshots and
  // tests call it; the window itself never needs to.
  void settle();
  // Whether a drawing is under way on the worker thread.
  bool drawing() const { return building_.has_value(); }
  // The mode of the layers shown: none while an empty plot stands for a drawing of another mode.
  std::optional<ViewMode> shownMode() const { return shown_mode_; }
  const Axes& axes() const { return axes_; }
  VtkViewWidget* vtkWidget() const { return vtk_; }
  // The view painted without OpenGL (null where VTK draws it).
  PlotWidget* plotWidget() const { return plot_; }
  // The view as the user sees it: axis boxes, the drawing, its legend and notes.
  QImage render();
  // The same, laid out at `pixels` for the moment of rendering (the drawing keeps its centre and
  // scale), whatever its size on screen.
  QImage render(QSize pixels);
  void resetCamera();
  // The view as a figure (view_figure.hpp): its layers, axis names, and the region shown when the
  // user has panned or zoomed (else all the data).
  ViewFigure figure() const;
  // A job building the view's layers with every point, where the window draws an evenly spaced
  // subset beyond 100,000: what a figure shows; with a `region` (view coordinates, a zoomed figure's),
  // the Grid view's cells beyond it are left out. It holds its own references to the view's state,
  // so it may run on any thread, after the view has moved on.
  std::function<Layers()> allPointsLayers(const QRectF& region = QRectF()) const;
  // A job writing the view as a figure (save_view_figure) with every point, on any thread: 2-D data
  // in its own coordinates, a picked point's neighbourhood whatever the window shows (figure_axes.hpp),
  // with `labels`' title and units.
  std::function<ViewFigureLayout(const std::string& path, const ImageSize& size)> figureWriter(
      const FigureLabels& labels = {}) const;

 private:
  struct Built;  // a drawing: its layers, their VTK data, and the state they show
  void fillAxisCombos();
  void fillPartitionCombo();
  void connectControls(QPushButton* reset);
  // The drawing follows the current state: started on a worker thread at once, or, while one is
  // under way, as soon as it ends (so rapid changes cost one build, not one each).
  void rebuild();
  // In the Grid view of a run's grid, moves to two of its indexed dimensions and draws them: false
  // where the view already shows them (or there are none), and the caller draws.
  bool showGridAxes();
  struct DrawingState;
  DrawingState drawingState() const;
  void startBuild();
  void finishBuild();
  // Shows a drawing's layers; the camera follows with moveCamera().
  void showBuilt(Built& built);
  void moveCamera();
  // The Grid view's first picture (from a subset of the points) while all points' is made.
  void showFirstPicture(int index);
  void showLayers();
  void showLegend();
  void focusOnPick();
  // How far around the picked point the view zooms: its eps-circle, or the 3 x 3 cells around it.
  double pickReach() const;
  // A drawing still under way after a moment: "drawing..." beside the controls, and, where the view
  // shows another mode than the one asked for, an empty plot rather than that mode's picture.
  void showDrawingSign();
  void onClicked(QPointF world, QPoint widget_pos);

  VtkViewWidget* vtk_;
  PlotWidget* plot_ = nullptr;  // draws instead of vtk_ where OpenGL cannot run
  std::unique_ptr<Scene2d> scene_;
  QComboBox* x_axis_;
  QComboBox* y_axis_;
  QComboBox* partition_;
  QListWidget* legend_;
  QToolButton* legend_toggle_;
  QLabel* notes_;
  StaleMarker* stale_;
  QLabel* drawing_;
  QTimer* drawing_delay_;
  std::optional<ViewMode> shown_mode_;  // the mode of the layers shown

  std::shared_ptr<const PointSet> points_;
  std::shared_ptr<const Pca> pca_;
  std::shared_ptr<const RunResult> result_;
  // The points on the current axes (null until the worker has projected them).
  std::shared_ptr<const std::vector<float>> projected_;
  std::optional<QFuture<std::shared_ptr<Built>>> building_;
  QFutureWatcher<std::shared_ptr<Built>>* watcher_;
  bool dirty_ = false;
  // Set when the state changes under a drawing: it then skips its refinement.
  std::shared_ptr<std::atomic<bool>> abandon_ = std::make_shared<std::atomic<bool>>(false);
  enum class Camera { Keep, Reset, FocusPick } camera_ = Camera::Keep;
  Axes axes_;
  ViewMode mode_ = ViewMode::Scatter;
  double eps_ = 0;
  PaletteKind palette_ = PaletteKind::Distinct;
  std::optional<std::uint32_t> selected_;
  std::optional<std::uint32_t> picked_;
  std::optional<std::uint32_t> shown_pick_;  // the pick the shown layers describe
  Layers layers_;
  std::shared_ptr<PlaneGridCache> grid_cache_ = std::make_shared<PlaneGridCache>();
};

}  // namespace simjoin::ui
