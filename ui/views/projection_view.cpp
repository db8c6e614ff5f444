#include "ui/views/projection_view.hpp"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QPromise>
#include <QPushButton>
#include <QSignalBlocker>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/base/error.hpp"
#include "core/points/pca_axes.hpp"
#include "ui/views/figure_axes.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/plot_widget.hpp"
#include "ui/views/scene_2d.hpp"
#include "ui/views/stale_marker.hpp"
#include "ui/views/vtk_view_widget.hpp"

namespace simjoin::ui {

namespace {

// The legend's width: fixed, its entries wrapped, so that a new drawing never resizes the view (each
// resize of the OpenGL view renders it once more, on the GUI thread).
constexpr int kLegendWidth = 220;
// Points drawn at most: an evenly spaced subset beyond (the density of the whole, as a sample), so that
// a frame stays well within the 100 ms the window may pause. OpenGL in software (llvmpipe) took 60-110 ms
// a frame for 100,000 points at 5 M loaded on two cores, 35-90 ms for 50,000.
std::size_t max_drawn_points() { return VtkViewWidget::openGLInSoftware() ? 50'000 : 100'000; }
// The Grid view's first picture counts the cells of about this many points: tens of milliseconds.
constexpr std::size_t kFirstPictureCells = 200'000;

// Layers that say why the view could not be drawn.
Layers failed_drawing(const std::exception& error) {
  Layers failed;
  failed.notes.push_back(std::string("The view could not be drawn: ") + error.what());
  return failed;
}

// Axis combo entries: data = index, negative for raw dimensions (-1 - dim).
void fill_axes(QComboBox* combo, const PointSet& points, const Pca* pca) {
  const QSignalBlocker block(combo);
  combo->clear();
  for (std::size_t c = 0; pca && c < pca->dims; ++c)
    combo->addItem(QString::fromStdString(axis_label(*pca, c, points)), static_cast<int>(c));
  for (std::size_t j = 0; j < points.dims(); ++j)
    combo->addItem(QString::fromStdString(column_name(points, j)), -1 - static_cast<int>(j));
}

void select_axis(QComboBox* combo, bool principal, std::size_t index) {
  const int data = principal ? static_cast<int>(index) : -1 - static_cast<int>(index);
  const QSignalBlocker block(combo);
  combo->setCurrentIndex(std::max(0, combo->findData(data)));
}

QIcon swatch(Rgb color) {
  QPixmap pixmap(14, 14);
  pixmap.fill(QColor(color[0], color[1], color[2]));
  return QIcon(pixmap);
}

// The views' own worker: a drawing never waits behind a join in the global pool, nor a join behind it.
QThreadPool* drawing_pool() {
  static QThreadPool* pool = [] {
    auto* made = new QThreadPool;
    made->setMaxThreadCount(1);
    return made;
  }();
  return pool;
}

}  // namespace

ProjectionView::ProjectionView(QWidget* parent)
    : QWidget(parent),
      vtk_(new VtkViewWidget),
      scene_(std::make_unique<Scene2d>(vtk_->renderer())),
      x_axis_(new QComboBox),
      y_axis_(new QComboBox),
      partition_(new QComboBox),
      legend_(new QListWidget),
      legend_toggle_(new QToolButton),
      notes_(new QLabel),
      stale_(new StaleMarker),
      drawing_(new QLabel(tr("drawing..."))),
      drawing_delay_(new QTimer(this)),
      watcher_(new QFutureWatcher<std::shared_ptr<Built>>(this)) {
  auto* reset = new QPushButton(tr("Reset view"));
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("X")));
  controls->addWidget(x_axis_);
  controls->addWidget(new QLabel(tr("Y")));
  controls->addWidget(y_axis_);
  controls->addWidget(new QLabel(tr("Partition")));
  controls->addWidget(partition_);
  controls->addStretch();
  controls->addWidget(drawing_);
  controls->addWidget(legend_toggle_);
  controls->addWidget(reset);
  // The boxes are as wide as their longest axis label ("PC1 (55.2 %): lon"), never cutting it off.
  for (QComboBox* box : {x_axis_, y_axis_}) box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  legend_->setSelectionMode(QAbstractItemView::NoSelection);
  legend_->setWordWrap(true);
  legend_->setFixedWidth(kLegendWidth);
  legend_->setVisible(false);
  legend_toggle_->setText(tr("Legend"));
  legend_toggle_->setCheckable(true);
  legend_toggle_->setChecked(true);
  legend_toggle_->setToolTip(tr("Show or hide the legend beside the view (--legend shown|hidden)"));
  connect(legend_toggle_, &QToolButton::toggled, this, [this] { showLegend(); });
  notes_->setWordWrap(true);
  // Its room is kept while hidden: the sign coming and going never moves the controls.
  drawing_->setObjectName("drawing");
  drawing_->setToolTip(tr("The view is being drawn on a worker thread; the window stays usable meanwhile"));
  QSizePolicy keep = drawing_->sizePolicy();
  keep.setRetainSizeWhenHidden(true);
  drawing_->setSizePolicy(keep);
  drawing_->setVisible(false);
  // Quick drawings (most) never show the sign.
  drawing_delay_->setSingleShot(true);
  drawing_delay_->setInterval(150);
  connect(drawing_delay_, &QTimer::timeout, this, &ProjectionView::showDrawingSign);
  auto* body = new QHBoxLayout;
  // Without OpenGL a QOpenGLWidget in the window crashes its first paint: draw with QPainter instead.
  if (VtkViewWidget::openGLUsable())
    body->addWidget(vtk_, 1);
  else
    body->addWidget(plot_ = new PlotWidget, 1);
  body->addWidget(legend_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(stale_);
  layout->addLayout(body, 1);
  layout->addWidget(notes_);
  connectControls(reset);
}

// The axis and partition boxes, the reset button, clicks and camera moves in the view, and the
// worker's drawing.
void ProjectionView::connectControls(QPushButton* reset) {
  auto axes_changed = [this] {
    const int x = x_axis_->currentData().toInt(), y = y_axis_->currentData().toInt();
    // Mixing a principal axis with a raw one is not a projection; follow the X choice.
    const bool principal = x >= 0;
    Axes axes{principal, static_cast<std::size_t>(principal ? x : -1 - x),
              static_cast<std::size_t>(principal ? std::max(y, 0) : (y < 0 ? -1 - y : 0))};
    setAxes(axes);
  };
  connect(x_axis_, &QComboBox::currentIndexChanged, this, axes_changed);
  connect(y_axis_, &QComboBox::currentIndexChanged, this, axes_changed);
  connect(partition_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const int p = partition_->itemData(index).toInt();
    selectPartition(p >= 0 ? std::optional<std::uint32_t>(p) : std::nullopt);
  });
  connect(reset, &QPushButton::clicked, this, &ProjectionView::resetCamera);
  connect(vtk_, &VtkViewWidget::clicked, this, &ProjectionView::onClicked);
  connect(vtk_, &VtkViewWidget::interactingChanged, this, [this](bool interacting) {
    scene_->set_interacting(interacting);
    vtk_->update();
  });
  // A drawing that settle() took already is not taken again; one still under way reports itself.
  connect(watcher_, &QFutureWatcherBase::finished, this, [this] {
    if (building_ && building_->isFinished()) finishBuild();
  });
  connect(watcher_, &QFutureWatcherBase::resultReadyAt, this, &ProjectionView::showFirstPicture);
}

ProjectionView::~ProjectionView() {
  scene_.reset();
  if (!vtk_->parent()) delete vtk_;  // not in the layout without OpenGL
}

void ProjectionView::setPoints(std::shared_ptr<const PointSet> points, std::shared_ptr<const Pca> pca) {
  points_ = std::move(points);
  pca_ = std::move(pca);
  grid_cache_ = std::make_shared<PlaneGridCache>();  // its grids are of the points before
  result_.reset();
  picked_.reset();
  selected_.reset();
  fill_axes(x_axis_, *points_, pca_.get());
  fill_axes(y_axis_, *points_, pca_.get());
  // A single dimension is shown against itself.
  axes_ = pca_ ? Axes{true, 0, std::min<std::size_t>(1, pca_->dims - 1)}
               : Axes{false, 0, std::min<std::size_t>(1, points_->dims() - 1)};
  select_axis(x_axis_, axes_.principal, axes_.a);
  select_axis(y_axis_, axes_.principal, axes_.b);
  fillPartitionCombo();
  projected_.reset();
  notes_->setMinimumHeight(0);
  camera_ = Camera::Reset;
  rebuild();
}

void ProjectionView::setResult(std::shared_ptr<const RunResult> result) {
  result_ = std::move(result);
  selected_.reset();
  fillPartitionCombo();
  if (!showGridAxes()) rebuild();
  resetCamera();  // a run's cells and markers may reach past the points
}

void ProjectionView::setEps(double eps) {
  eps_ = eps;
  if (points_) rebuild();
}

void ProjectionView::setMode(ViewMode mode) {
  // The window's mode tabs and its View menu both call this: the same mode twice is one drawing.
  if (mode == mode_ && points_) return;
  mode_ = mode;
  partition_->setEnabled(mode == ViewMode::Replication);
  // The points' grid is kept while the Grid view is shown (320 MB at 20 M points), not after.
  if (mode != ViewMode::Grid) grid_cache_ = std::make_shared<PlaneGridCache>();
  if (points_ && !showGridAxes()) rebuild();
}

bool ProjectionView::showGridAxes() {
  // The grid is drawn on its own indexed dimensions.
  if (!points_ || mode_ != ViewMode::Grid || !result_ || !result_->grid || result_->grid->indexed_dims.size() < 2)
    return false;
  const Axes grid{false, std::size_t(result_->grid->indexed_dims[0]), std::size_t(result_->grid->indexed_dims[1])};
  if (!axes_.principal && axes_.a == grid.a && axes_.b == grid.b) return false;
  setAxes(grid);
  return !axes_.principal && axes_.a == grid.a && axes_.b == grid.b;
}

void ProjectionView::setAxes(const Axes& axes) {
  if (!points_) return;
  const std::size_t limit = axes.principal && pca_ ? pca_->dims : points_->dims();
  if (axes.a >= limit || axes.b >= limit || (axes.principal && !pca_)) return;
  axes_ = axes;
  select_axis(x_axis_, axes.principal, axes.a);
  select_axis(y_axis_, axes.principal, axes.b);
  projected_.reset();
  camera_ = Camera::Reset;
  rebuild();
}

void ProjectionView::setPalette(PaletteKind palette) {
  palette_ = palette;
  if (points_) rebuild();
}

void ProjectionView::selectPartition(std::optional<std::uint32_t> partition) {
  selected_ = partition;
  const QSignalBlocker block(partition_);
  partition_->setCurrentIndex(std::max(0, partition_->findData(partition ? int(*partition) : -1)));
  if (points_) rebuild();
}

void ProjectionView::fillPartitionCombo() {
  const QSignalBlocker block(partition_);
  partition_->clear();
  partition_->addItem(tr("all"), -1);
  if (result_ && result_->partitions)
    for (std::size_t p = 0; p < result_->partitions->k; ++p)
      partition_->addItem(QString::number(p), static_cast<int>(p));
}

struct ProjectionView::Built {
  Layers layers;
  SceneData scene;  // the layers as VTK data
  std::shared_ptr<const std::vector<float>> projected;
  Axes axes;
  std::optional<std::uint32_t> picked;
  ViewMode mode = ViewMode::Scatter;
  bool shown = false;  // its layers moved into the view (a first picture whose refinement was dropped)
};

void ProjectionView::rebuild() {
  if (!points_) return;
  if (building_) {
    dirty_ = true;
    abandon_->store(true);  // its first picture, if it has one, is enough
    return;
  }
  startBuild();
}

// What a drawing is made from, all of it immutable: the worker holds its own references.
struct ProjectionView::DrawingState {
  std::shared_ptr<const PointSet> points;
  std::shared_ptr<const Pca> pca;
  std::shared_ptr<const RunResult> result;
  std::shared_ptr<const std::vector<float>> projected;  // null: projected by the worker
  Axes axes;
  ViewMode mode;
  double eps;
  std::optional<std::uint32_t> selected, picked;
  PaletteKind palette;
  std::shared_ptr<PlaneGridCache> grid_cache;

  std::shared_ptr<const std::vector<float>> projection() const {
    return projected ? projected : std::make_shared<const std::vector<float>>(project_points(*points, pca.get(), axes));
  }
  // The layers of at most `max_display` points (an evenly spaced subset beyond), or a note of why
  // they could not be drawn.
  Layers layers(const std::vector<float>& on_axes, std::size_t max_display,
                std::optional<std::array<double, 4>> region = std::nullopt, std::size_t cell_sample = 0) const {
    try {
      ViewInput input;
      input.points = points.get();
      input.pca = pca.get();
      input.axes = axes;
      input.projected = &on_axes;
      input.mode = mode;
      input.show_run(result.get());
      input.eps = eps;
      input.selected_partition = selected;
      input.picked = picked;
      input.palette = palette;
      input.max_display = max_display;
      input.region = region;
      input.cell_sample = cell_sample;
      input.grid_cache = grid_cache.get();
      return build_layers(input);
    } catch (const std::exception& error) {
      return failed_drawing(error);
    }
  }
};

ProjectionView::DrawingState ProjectionView::drawingState() const {
  return {points_, pca_, result_, projected_, axes_, mode_, eps_, selected_, picked_, palette_, grid_cache_};
}

namespace {
// The Grid view's cells to draw for a figure of `region`: grown by its larger side all round, since
// the figure widens the region to its own aspect; none given for the whole data.
std::optional<std::array<double, 4>> cells_around(const QRectF& region) {
  if (region.isEmpty()) return std::nullopt;
  const double grow = std::max(region.width(), region.height());
  return std::array<double, 4>{region.left() - grow, region.top() - grow, region.right() + grow,
                               region.bottom() + grow};
}
}  // namespace

std::function<Layers()> ProjectionView::allPointsLayers(const QRectF& region) const {
  // Without points there is nothing to draw: the job refuses, as a figure of no data is no figure.
  if (!points_) return []() -> Layers { fail(ErrorKind::BadInput, "no points are loaded: there is no view to draw"); };
  return [state = drawingState(), shown = cells_around(region)] {
    return state.layers(*state.projection(), state.points->size(), shown);
  };
}

std::function<ViewFigureLayout(const std::string&, const ImageSize&)> ProjectionView::figureWriter(
    const FigureLabels& labels) const {
  if (!points_)
    return [](const std::string&, const ImageSize&) -> ViewFigureLayout {
      fail(ErrorKind::BadInput, "no points are loaded: there is no view to draw");
    };
  ViewFigure shown = figure();
  DrawingState state = drawingState();
  const Axes axes = figure_axes(*state.points, state.axes);
  if (axes.principal != state.axes.principal || axes.a != state.axes.a || axes.b != state.axes.b) {
    state.axes = axes;
    state.projected = nullptr;
    shown.region = QRectF();  // the window's region is on other axes
  }
  if (!axes.principal) {
    shown.x_title = column_title(*state.points, axes.a);
    shown.y_title = column_title(*state.points, axes.b);
  }
  shown.x_title = with_unit(shown.x_title, labels.x_unit);
  shown.y_title = with_unit(shown.y_title, labels.y_unit);
  shown.title = labels.title;
  return [figure = shown, state, reach = pickReach()](const std::string& path, const ImageSize& size) {
    const std::shared_ptr<const std::vector<float>> on_axes = state.projection();
    ViewFigure drawn = figure;
    if (state.picked && reach > 0) drawn.region = pick_region(*on_axes, *state.picked, reach);
    const Layers layers = state.layers(*on_axes, state.points->size(), cells_around(drawn.region));
    drawn.layers = &layers;
    return save_view_figure(drawn, path, size);
  };
}

void ProjectionView::startBuild() {
  // Above kFirstPictureCells points the Grid view first counts a subset's cells (a picture within a
  // fraction of a second), then every point's; a newer state abandons the second.
  auto job = [state = drawingState(), most = max_drawn_points(),
              abandon = abandon_](QPromise<std::shared_ptr<Built>>& promise) {
    const auto build = [&](std::size_t cell_sample) {
      auto built = std::make_shared<Built>();
      built->axes = state.axes;
      built->picked = state.picked;
      built->mode = state.mode;
      try {
        built->projected = state.projection();
        built->layers = state.layers(*built->projected, most, std::nullopt, cell_sample);
      } catch (const std::exception& error) {  // the projection
        built->layers = failed_drawing(error);
      }
      built->scene = build_scene_data(built->layers);
      return built;
    };
    auto first = build(state.mode == ViewMode::Grid ? kFirstPictureCells : 0);
    const bool refine = first->layers.partial;
    promise.addResult(std::move(first));
    if (refine && !abandon->load()) promise.addResult(build(0));
  };
  abandon_->store(false);
  building_ = QtConcurrent::run(drawing_pool(), std::move(job));
  watcher_->setFuture(*building_);
  if (!drawing_delay_->isActive()) drawing_delay_->start();
}

void ProjectionView::showDrawingSign() {
  if (!building_) return;
  drawing_->setVisible(true);
  if (shown_mode_ == mode_) return;
  static const Layers kNothing;
  scene_->show(build_scene_data(kNothing));
  if (plot_) plot_->setLayers(&kNothing);
  shown_mode_.reset();
  vtk_->update();
}

void ProjectionView::showBuilt(Built& built) {
  built.shown = true;
  if (built.axes.principal == axes_.principal && built.axes.a == axes_.a && built.axes.b == axes_.b)
    projected_ = built.projected;
  layers_ = std::move(built.layers);
  shown_pick_ = built.picked;
  shown_mode_ = built.mode;
  scene_->show(built.scene);
  // A new drawing may resize the view (the legend appears, the notes grow). Laid out now with the
  // view's updates off, the resize does not render it: the software OpenGL then renders the new
  // drawing once, for the update that follows, instead of once inside the resize and once again.
  vtk_->setUpdatesEnabled(false);
  showLayers();
  layout()->activate();
  vtk_->setUpdatesEnabled(true);
}

void ProjectionView::moveCamera() {
  // The camera moves once the layers it frames are shown.
  if (camera_ == Camera::Reset) resetCamera();
  if (camera_ == Camera::FocusPick) focusOnPick();
  camera_ = Camera::Keep;
}

void ProjectionView::showFirstPicture(int index) {
  // Shown only while the drawing of all points is still under way, and only for the current state.
  if (!building_ || building_->isFinished() || index != 0 || dirty_ || building_->resultAt(0)->shown) return;
  showBuilt(*building_->resultAt(0));
  drawing_->setVisible(true);
  moveCamera();
}

void ProjectionView::finishBuild() {
  const std::shared_ptr<Built> built = building_->resultAt(building_->resultCount() - 1);
  building_.reset();
  if (!built->shown) showBuilt(*built);
  if (dirty_) {  // the state changed meanwhile: draw it again
    dirty_ = false;
    startBuild();
    return;
  }
  drawing_delay_->stop();
  drawing_->setVisible(false);
  moveCamera();
}

void ProjectionView::settle() {
  if (!building_) return;
  while (building_) {
    building_->waitForFinished();
    finishBuild();
  }
  layout()->activate();  // the legend's new width now, for a grab before the next event loop turn
}

double ProjectionView::pickReach() const {
  double reach = 2.5 * eps_;
  if (mode_ == ViewMode::Grid && result_ && result_->grid) reach = std::max(reach, 2.5 * result_->grid->cell_width);
  return reach;
}

void ProjectionView::focusOnPick() {
  if (!picked_ || !projected_) return;
  // The picked point's eps-circle, or the 3 x 3 cells around it, fill most of the view's height.
  const double reach = pickReach();
  const double x = (*projected_)[2 * *picked_], y = (*projected_)[2 * *picked_ + 1];
  if (plot_)
    plot_->focusOn(x, y, reach);
  else
    vtk_->focusOn(x, y, reach);
}

void ProjectionView::showLayers() {
  scene_->set_point_size(layers_.small_points || layers_.ids.size() > 200000 ? 2 : 4);
  legend_->clear();
  for (const auto& entry : layers_.legend)
    legend_->addItem(new QListWidgetItem(swatch(entry.color), QString::fromStdString(entry.label)));
  // The picked point's facts follow the legend, under a heading; long lines show whole as tooltips.
  if (!layers_.picked_facts.empty()) legend_->addItem(tr("Picked point"));
  for (const auto& fact : layers_.picked_facts) {
    auto* item = new QListWidgetItem(swatch(fact.color), QString::fromStdString(fact.label));
    item->setToolTip(item->text());
    legend_->addItem(item);
  }
  // The legend takes the width of its entries, and no room at all when it has none.
  showLegend();
  QStringList notes;
  for (const auto& note : layers_.notes) notes << QString::fromStdString(note);
  notes_->setText(notes.join("\n"));
  // The notes' room only grows (until new points come), so that the view keeps its size.
  notes_->setMinimumHeight(
      std::max(notes_->minimumHeight(), notes_->heightForWidth(std::max(notes_->width(), width() / 2))));
  vtk_->update();
  if (plot_) plot_->setLayers(&layers_);
}

void ProjectionView::setLegendShown(bool shown) { legend_toggle_->setChecked(shown); }

bool ProjectionView::legendShown() const { return legend_toggle_->isChecked(); }

void ProjectionView::showLegend() {
  // Beside the view, never over it; no room at all when it has no entries or is hidden.
  legend_->setVisible(legend_toggle_->isChecked() && legend_->count() > 0);
}

void ProjectionView::setStale(const QString& reason) { stale_->setReason(reason); }

QImage ProjectionView::render() {
  settle();
  return grab_with_view(this, vtk_);
}

QImage ProjectionView::render(QSize pixels) {
  // Resized without returning to the event loop, the window's layout cannot undo it before the grab.
  const QSize on_screen = size();
  resize(pixels);
  QImage image = render();
  resize(on_screen);
  return image;
}

void ProjectionView::resetCamera() {
  if (plot_)
    plot_->resetView();
  else
    vtk_->resetCamera();
}

ViewFigure ProjectionView::figure() const {
  ViewFigure figure;
  figure.layers = &layers_;
  figure.x_title = x_axis_->currentText();
  figure.y_title = y_axis_->currentText();
  if (plot_)
    figure.region = plot_->region();
  else if (!vtk_->fitted())
    figure.region = vtk_->visibleRegion();
  return figure;
}

std::optional<std::uint32_t> ProjectionView::pickAt(QPointF world) {
  if (!points_) return std::nullopt;
  // The points as the user sees them, even while a new drawing is under way.
  pick(pick_nearest(layers_.xy, layers_.ids, world.x(), world.y(), 6 * vtk_->worldPerPixel()));
  return picked_;
}

bool ProjectionView::pick(std::optional<std::uint32_t> id) {
  if (!points_ || (id && *id >= points_->size())) return false;
  picked_ = id;
  if (id) camera_ = Camera::FocusPick;  // centred and zoomed in, so that its marks show at any data size
  rebuild();
  return true;
}

QString ProjectionView::describePoint(std::uint32_t id) const {
  QStringList coords;
  const std::size_t shown = std::min<std::size_t>(points_->dims(), 8);
  for (std::size_t j = 0; j < shown; ++j) coords << QString::number(points_->point(id)[j], 'g', 6);
  if (shown < points_->dims()) coords << "...";
  QString text = tr("point %1\n(%2)").arg(id).arg(coords.join(", "));
  if (result_ && result_->partitions && id < result_->partitions->membership.size())
    text += tr("\npartition %1").arg(result_->partitions->membership[id]);
  if (picked_ == id && shown_pick_ == id && !layers_.picked_facts.empty()) {
    for (const auto& fact : layers_.picked_facts) text += "\n" + QString::fromStdString(fact.label);
    return text;
  }
  text += tr("\n%1 neighbours within eps = %2").arg(neighbours_within(*points_, id, eps_).size()).arg(eps_, 0, 'g', 6);
  return text;
}

void ProjectionView::onClicked(QPointF world, QPoint widget_pos) {
  const auto id = pickAt(world);
  if (id)
    QToolTip::showText(vtk_->mapToGlobal(widget_pos), describePoint(*id), vtk_);
  else
    QToolTip::hideText();
}

}  // namespace simjoin::ui
