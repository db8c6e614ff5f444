#pragma once
// A 2-D view as a figure, drawn with QPainter from the same Layers the VTK scene draws: the plot
// alone (no widgets), axes with ticks and their titles, a key that never covers the data, and the
// view's notes underneath where they fit. The layout starts from the plot: at any printed size the
// plot frame keeps at least kMinPlotShare of the figure's area, and the key takes what is left,
// beside the plot or under it in columns, shortened (figure_key.hpp) as far as it must be to fit.
// In SVG and PDF everything is vector, except the points beyond `max_vector_points`, which become
// one lossless embedded image under the vector axes and text (matplotlib's rasterized=True).
// Text is sized in points of the printed figure (figure_text.hpp), whatever the window's size.
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QTransform>

#include <string>
#include <vector>

#include "ui/export/image_size.hpp"
#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

// The share of the figure's area the plot frame keeps at least.
inline constexpr double kMinPlotShare = 0.55;

struct ViewFigure {
  const Layers* layers = nullptr;
  QString x_title, y_title;  // the axes' names ("PC1 (88.3 %): lon", "lon (deg)")
  QString title;             // above the plot; empty: none
  QRectF region;             // view coordinates to show; empty: all the layers
  std::size_t max_vector_points = 20000;
};

// Where the figure put its parts, in layout units (a 96-dpi figure of the printed size).
struct ViewFigureLayout {
  QRectF plot;    // the data's frame
  QRectF legend;  // the key; empty without one
  QRectF notes;
  QRectF region;              // the view coordinates the plot shows
  std::vector<QString> key;   // the key's entries as drawn
  int key_level = 0;          // how far the key was shortened (figure_key.hpp)
  std::vector<QRectF> texts;  // every text's box outside the plot: ticks, titles, key, notes
};

// The view coordinates the layers cover: points, markers, segments, cells and labels (those beyond
// float32's range left out).
QRectF layers_bounds(const Layers& layers);
// `region` as a frame can show it: finite, and at least a few float32 steps wide about its centre (a
// zoom to eps = 1e-310 would otherwise map every point to NaN); the whole (-1, 1) square if not finite.
QRectF drawable_region(const QRectF& region);
// View coordinates (y up) to `frame` (y down) showing `region`.
QTransform world_to_frame(const QRectF& region, const QRectF& frame);
// `region` grown on one side so that its width / height equals `aspect`, keeping its centre.
QRectF fit_aspect(const QRectF& region, double aspect);

// Lays the figure out at `layout` (96-dpi units) and paints it scaled into `target` (device units).
ViewFigureLayout paint_view_figure(QPainter& painter, const QRectF& target, const QSizeF& layout,
                                   const ViewFigure& figure);
// The plot alone (no axes, legend or notes) filling `frame`, for a view drawn without OpenGL.
void paint_view_plot(QPainter& painter, const QRectF& frame, const QRectF& region, const Layers& layers,
                     std::size_t max_vector_points);
// The figure as .png, .svg or .pdf (paint_to_file); returns its layout.
ViewFigureLayout save_view_figure(const ViewFigure& figure, const std::string& path, const ImageSize& size);

}  // namespace simjoin::ui
