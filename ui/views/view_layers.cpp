#include "ui/views/view_layers.hpp"

#include <string>

#include "core/run/error.hpp"
#include "ui/views/grid_layers.hpp"
#include "ui/views/layer_geometry.hpp"
#include "ui/views/partition_layers.hpp"
#include "ui/views/picking.hpp"

namespace simjoin::ui {

namespace {

// Chooses the displayed points (all, or every m-th plus the picked one) with colour per point id.
void add_points(Layers& out, const ViewInput& in, const std::vector<Rgb>& colors) {
  const std::size_t n = in.points->size();
  const std::size_t stride = n > in.max_display ? (n + in.max_display - 1) / in.max_display : 1;
  auto add = [&](std::size_t i) {
    out.ids.push_back(static_cast<std::uint32_t>(i));
    out.xy.insert(out.xy.end(), {(*in.projected)[2 * i], (*in.projected)[2 * i + 1]});
    out.rgb.insert(out.rgb.end(), colors[i].begin(), colors[i].end());
  };
  for (std::size_t i = 0; i < n; i += stride) add(i);
  if (stride > 1) {
    // The picked point and its neighbours are drawn whatever the subset: they are what a pick shows.
    for (std::size_t i = 0; i < n; ++i)
      if (i % stride != 0 && (colors[i] == kNeighbour || (in.picked && i == *in.picked))) add(i);
    out.notes.push_back("Showing " + std::to_string(out.ids.size()) + " of " + std::to_string(n) + " points (every " +
                        std::to_string(stride) + "th) to keep drawing fast");
  }
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
  out.legend.push_back({"within eps of the picked point", kNeighbour});
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
  return out;
}

}  // namespace simjoin::ui
