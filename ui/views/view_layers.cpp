#include "ui/views/view_layers.hpp"

#include <cmath>
#include <string>

#include "core/base/error.hpp"
#include "ui/views/grid_layers.hpp"
#include "ui/views/layer_geometry.hpp"
#include "ui/views/partition_layers.hpp"
#include "ui/views/picking.hpp"

namespace simjoin::ui {

namespace {

// Whether point i lies in the box the view zooms to around the picked point (8 eps each way), where
// every point is drawn when there are at most `most` of them off the evenly spaced subset.
std::vector<bool> near_pick(const ViewInput& in, std::size_t stride, std::size_t most) {
  std::vector<bool> near(in.points->size(), false);
  if (!in.picked || !(in.eps > 0)) return near;
  const float x = (*in.projected)[2 * *in.picked], y = (*in.projected)[2 * *in.picked + 1];
  const double reach = 8 * in.eps;
  std::size_t count = 0;
  for (std::size_t i = 0; i < near.size() && count <= most; ++i) {
    near[i] = i % stride != 0 && std::abs((*in.projected)[2 * i] - x) <= reach &&
              std::abs((*in.projected)[2 * i + 1] - y) <= reach;
    count += near[i];
  }
  if (count > most) near.assign(near.size(), false);
  return near;
}

// Chooses the displayed points (all, or every m-th plus the picked one, its neighbours and the points
// around it) with colour per point id.
void add_points(Layers& out, const ViewInput& in, const std::vector<Rgb>& colors) {
  const std::size_t n = in.points->size();
  const std::size_t stride = n > in.max_display ? (n + in.max_display - 1) / in.max_display : 1;
  auto add = [&](std::size_t i) {
    out.ids.push_back(static_cast<std::uint32_t>(i));
    out.xy.insert(out.xy.end(), {(*in.projected)[2 * i], (*in.projected)[2 * i + 1]});
    out.rgb.insert(out.rgb.end(), colors[i].begin(), colors[i].end());
  };
  for (std::size_t i = 0; i < n; i += stride) add(i);
  if (stride == 1) return;
  // The picked point, its neighbours and the points the view zooms to are drawn whatever the subset:
  // they are what a pick shows.
  const std::vector<bool> near = near_pick(in, stride, in.max_display);
  const std::size_t subset = out.ids.size();
  for (std::size_t i = 0; i < n; ++i)
    if (i % stride != 0 && (near[i] || colors[i] == kNeighbour || (in.picked && i == *in.picked))) add(i);
  out.notes.push_back("Showing " + std::to_string(out.ids.size()) + " of " + std::to_string(n) + " points (every " +
                      std::to_string(stride) + "th" +
                      (out.ids.size() - subset > 1 ? ", and all of those around the picked point" : "") +
                      ") to keep drawing fast");
}

// Points whose view coordinates are beyond float32's range (data near 1e308) are not drawn: said so.
void note_undrawable(Layers& out) {
  std::size_t beyond = 0;
  for (std::size_t i = 0; i + 1 < out.xy.size(); i += 2)
    beyond += !std::isfinite(out.xy[i]) || !std::isfinite(out.xy[i + 1]);
  if (beyond > 0)
    out.notes.push_back(std::to_string(beyond) + " points lie beyond the view's range (about 3.4e38, float32) on " +
                        "these axes and are not drawn");
}

// The picked point's neighbours within eps, joined to it by lines (the Grid view draws its own search).
void add_neighbours(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  const std::uint32_t i = *in.picked;
  const Point2 p{(*in.projected)[2 * i], (*in.projected)[2 * i + 1]};
  const auto found = neighbours_within(*in.points, i, in.eps);
  for (std::uint32_t q : found) {
    colors[q] = kNeighbour;
    add_segment(out, p, {(*in.projected)[2 * q], (*in.projected)[2 * q + 1]}, kNeighbour);
  }
  out.legend.push_back({"within eps of the picked point", kNeighbour, "within eps"});
  out.picked_facts.push_back({std::to_string(found.size()) + " neighbours within eps", kNeighbour});
}

}  // namespace

std::vector<float> project_points(const PointSet& points, const Pca* pca, const Axes& axes) {
  if (!axes.principal) return select_2d(points, axes.a, axes.b);
  if (!pca) fail(ErrorKind::Internal, "principal axes requested without a PCA");
  return project_2d(points, *pca, axes.a, axes.b);
}

Layers build_layers(const ViewInput& in) {
  Layers out;
  std::vector<Rgb> colors(in.points->size(), kPlainPoint);
  switch (in.mode) {
    case ViewMode::Scatter:
      break;
    case ViewMode::Partitions:
      partition_layers(in, out, colors);
      break;
    case ViewMode::Replication:
      replication_layers(in, out, colors);
      break;
    case ViewMode::Grid:
      grid_layers(in, out, colors);
      break;
  }
  if (in.picked && in.mode != ViewMode::Grid) add_neighbours(in, out, colors);
  if (in.picked) colors[*in.picked] = kPicked;
  add_points(out, in, colors);
  note_undrawable(out);
  return out;
}

}  // namespace simjoin::ui
