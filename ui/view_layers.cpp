#include "ui/view_layers.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "ui/grid_cells.hpp"
#include "ui/picking.hpp"
#include "ui/replication.hpp"

namespace simjoin::ui {

namespace {

// Drawing every partition's cell and band stays readable up to this many partitions.
constexpr std::size_t kMaxCellsDrawn = 12;

// One d-dimensional position (a centroid, a polygon vertex) on the displayed axes.
std::array<float, 2> project_one(const double* p, const ViewInput& in) {
  const std::size_t d = in.points->dims();
  if (!in.axes.principal) return {float(p[in.axes.a]), float(p[in.axes.b])};
  double u = 0, v = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const double c = p[j] - in.pca->mean[j];
    u += c * in.pca->components[in.axes.a * d + j];
    v += c * in.pca->components[in.axes.b * d + j];
  }
  return {float(u), float(v)};
}

void add_segment(Layers& out, std::array<float, 2> p, std::array<float, 2> q, Rgb color) {
  out.segments.insert(out.segments.end(), {p[0], p[1], q[0], q[1]});
  out.segment_rgb.insert(out.segment_rgb.end(), color.begin(), color.end());
}

void add_polygon(Layers& out, const Polygon2d& poly, const ViewInput& in, Rgb color) {
  const std::size_t m = poly.xy.size() / 2;
  for (std::size_t v = 0; v < m; ++v)
    add_segment(out, project_one(&poly.xy[2 * v], in), project_one(&poly.xy[2 * ((v + 1) % m)], in),
                color);
}

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
    if (in.picked && *in.picked % stride != 0) add(*in.picked);
    out.notes.push_back("Showing " + std::to_string(out.ids.size()) + " of " + std::to_string(n) +
                        " points (every " + std::to_string(stride) + "th) to keep drawing fast");
  }
}

void add_centroids(Layers& out, const ViewInput& in) {
  const auto& s = *in.partitions;
  const std::size_t d = in.points->dims();
  std::vector<double> c(d);
  for (std::size_t p = 0; p < s.k; ++p) {
    std::copy_n(&s.centroids[p * d], d, c.begin());
    const auto xy = project_one(c.data(), in);
    out.marker_xy.insert(out.marker_xy.end(), xy.begin(), xy.end());
    const Rgb color = category_color(p);
    out.marker_rgb.insert(out.marker_rgb.end(), color.begin(), color.end());
  }
}

bool has_partitions(const ViewInput& in, Layers& out) {
  const auto* s = in.partitions;
  if (s && s->membership.size() == in.points->size() && s->centroids.size() == s->k * in.points->dims())
    return true;
  out.notes.push_back(s ? "The partition structure does not match the loaded points"
                        : "Run a k-means engine (cpu-kmeans) to see its partitions");
  return false;
}

void partition_colors(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  const auto& s = *in.partitions;
  const auto counts = replication_counts(s);
  for (std::size_t i = 0; i < colors.size(); ++i) colors[i] = category_color(s.membership[i]);
  for (std::size_t p = 0; p < s.k; ++p)
    out.legend.push_back({"partition " + std::to_string(p) + " (" + std::to_string(counts[p].own) +
                              " points)",
                          category_color(p)});
  add_centroids(out, in);
}

// Bisectors (cell edges) and eps-bands of the given partitions, for 2-D data, clipped to the
// data's bounds plus eps (what the view shows).
void add_partition_cells(const ViewInput& in, Layers& out, const std::vector<std::uint32_t>& partitions) {
  const Bounds64 bounds = compute_bounds(*in.points);
  const double margin = std::max(in.eps, 1e-6);
  const double low[2] = {bounds.low[0] - margin, bounds.low[1] - margin};
  const double high[2] = {bounds.high[0] + margin, bounds.high[1] + margin};
  for (std::uint32_t p : partitions) {
    const PartitionCell cell = partition_cell_2d(*in.partitions, p, in.eps, low, high);
    add_polygon(out, cell.cell, in, {0, 0, 0});
    add_polygon(out, cell.band, in, kCopy);
  }
  out.legend.push_back({"bisectors (cell edges)", {0, 0, 0}});
  out.legend.push_back({"eps-band: receives copies from here", kCopy});
}

void replication_colors(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  const auto& s = *in.partitions;
  add_centroids(out, in);
  const bool planar = in.points->dims() == 2;
  if (!in.selected_partition) {
    const auto copies = copies_per_point(s);
    for (std::size_t i = 0; i < colors.size(); ++i) colors[i] = copies[i] ? kCopy : kDimmed;
    out.legend = {{"copied into other partitions", kCopy}, {"not copied", kDimmed}};
    if (!planar) {
      out.notes.push_back("Bisectors and eps-bands are drawn for 2-D data only");
    } else if (s.k > kMaxCellsDrawn) {
      out.notes.push_back("Bisectors and eps-bands of all partitions are drawn for k <= " +
                          std::to_string(kMaxCellsDrawn) + "; select a partition to see its own");
    } else {
      std::vector<std::uint32_t> all(s.k);
      for (std::uint32_t p = 0; p < s.k; ++p) all[p] = p;
      add_partition_cells(in, out, all);
    }
    return;
  }
  const std::uint32_t p = *in.selected_partition;
  for (std::size_t i = 0; i < colors.size(); ++i)
    colors[i] = s.membership[i] == p ? category_color(p) : kDimmed;
  for (std::uint32_t i : received_by(s, p)) colors[i] = kCopy;
  out.legend = {{"own points of partition " + std::to_string(p), category_color(p)},
                {"copies it receives", kCopy},
                {"other partitions", kDimmed}};
  if (!planar) {
    out.notes.push_back("Bisectors and eps-bands are drawn for 2-D data only");
    return;
  }
  add_partition_cells(in, out, {p});
}

Rgb occupancy_shade(double fraction) {
  // Light to dark blue as occupancy grows (log scale: counts span orders of magnitude).
  const double t = std::clamp(fraction, 0.0, 1.0);
  return {static_cast<std::uint8_t>(222 - 190 * t), static_cast<std::uint8_t>(235 - 150 * t),
          static_cast<std::uint8_t>(247 - 100 * t)};
}

// The view's two axes as positions in the grid's indexed dimensions.
struct GridPlane {
  std::size_t x, y;
};

std::optional<GridPlane> grid_plane(const GridStructure& g, const Axes& axes) {
  if (axes.principal) return std::nullopt;
  const auto position = [&](std::size_t dim) -> std::optional<std::size_t> {
    const auto it = std::find(g.indexed_dims.begin(), g.indexed_dims.end(), static_cast<int>(dim));
    if (it == g.indexed_dims.end()) return std::nullopt;
    return static_cast<std::size_t>(it - g.indexed_dims.begin());
  };
  const auto x = position(axes.a), y = position(axes.b);
  if (!x || !y || *x == *y) return std::nullopt;
  return GridPlane{*x, *y};
}

void add_rect(Layers& out, const GridStructure& g, const GridPlane& plane, std::int64_t x, std::int64_t y,
              Rgb color, std::uint8_t alpha) {
  const double w = g.cell_width, ox = g.origin[plane.x], oy = g.origin[plane.y];
  out.rects.insert(out.rects.end(),
                   {float(ox + x * w), float(oy + y * w), float(ox + (x + 1) * w), float(oy + (y + 1) * w)});
  out.rect_rgba.insert(out.rect_rgba.end(), {color[0], color[1], color[2], alpha});
}

void grid_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  const auto* g = in.grid;
  if (!g) {
    out.notes.push_back("Run a grid engine (cpu-grid) to see its cells");
    return;
  }
  // Cells are drawn only when both view axes are raw indexed dimensions; other axes would cut them.
  const auto plane = grid_plane(*g, in.axes);
  if (!plane) {
    out.notes.push_back(g->indexed_dims.size() < 2
                            ? "The grid indexes fewer than two dimensions"
                            : "Grid cells are drawn on raw axes the grid indexes (dim " +
                                  std::to_string(g->indexed_dims[0]) + " / dim " +
                                  std::to_string(g->indexed_dims.at(1)) + ", ...): choose them");
    return;
  }
  const GridCells cells = grid_cells(*g, *in.points);
  const auto shown = cells_in_plane(cells, plane->x, plane->y);
  std::uint32_t max_count = 1;
  for (const auto& c : shown) max_count = std::max(max_count, c.count);
  for (const auto& c : shown)
    add_rect(out, *g, *plane, c.x, c.y, occupancy_shade(std::log1p(c.count) / std::log1p(max_count)), 255);
  // Small grey points, so that the cells' occupancy shading stays readable under them.
  std::fill(colors.begin(), colors.end(), kGridPoint);
  out.small_points = true;
  out.legend.push_back({"points", kGridPoint});
  out.legend.push_back({"non-empty cell, few points", occupancy_shade(0.0)});
  out.legend.push_back({"non-empty cell, most points", occupancy_shade(1.0)});
  if (!in.picked) return;
  const std::uint32_t i = *in.picked;
  const std::optional<std::size_t> cell = cell_of(*g, i);
  if (!cell) {
    out.notes.push_back("The picked point lies far outside the rest: it is in no cell, and was joined with "
                        "every point apart from the grid, in float64");
    return;
  }
  const std::size_t picked_cell = *cell;
  const std::vector<std::int64_t> from(cells.coords.begin() + picked_cell * cells.dims,
                                       cells.coords.begin() + (picked_cell + 1) * cells.dims);
  const double eps2 = in.eps * in.eps;
  for (std::size_t row : searched_cells(cells, from, g->unicomp)) {
    const std::int64_t* c = &cells.coords[row * cells.dims];
    add_rect(out, *g, *plane, c[plane->x], c[plane->y], kNeighbour, 110);
    const bool own = row == picked_cell;
    for (std::uint32_t r = g->cell_begin[row]; r < g->cell_end[row]; ++r) {
      const std::uint32_t q = g->point_order[r];
      if (q == i || (own && g->unicomp && q < i)) continue;
      double d2 = 0;
      for (std::size_t j = 0; j < in.points->dims(); ++j) {
        const double diff = double(in.points->point(i)[j]) - in.points->point(q)[j];
        d2 += diff * diff;
      }
      if (d2 <= eps2)
        add_segment(out, {(*in.projected)[2 * i], (*in.projected)[2 * i + 1]},
                    {(*in.projected)[2 * q], (*in.projected)[2 * q + 1]}, kPicked);
    }
  }
  out.legend.push_back({g->unicomp ? "cells the picked point searches (unicomp half)"
                                   : "cells the picked point searches",
                        kNeighbour});
  out.legend.push_back({"pairs it finds", kPicked});
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
      if (has_partitions(in, out)) partition_colors(in, out, colors);
      break;
    case ViewMode::Replication:
      if (has_partitions(in, out)) replication_colors(in, out, colors);
      break;
    case ViewMode::Grid:
      grid_layers(in, out, colors);
      break;
  }
  if (in.picked && in.mode != ViewMode::Grid) {
    for (std::uint32_t q : neighbours_within(*in.points, *in.picked, in.eps)) {
      colors[q] = kNeighbour;
      add_segment(out, {(*in.projected)[2 * *in.picked], (*in.projected)[2 * *in.picked + 1]},
                  {(*in.projected)[2 * q], (*in.projected)[2 * q + 1]}, kNeighbour);
    }
    out.legend.push_back({"within eps of the picked point", kNeighbour});
  }
  if (in.picked) colors[*in.picked] = kPicked;
  add_points(out, in, colors);
  return out;
}

}  // namespace simjoin::ui
