#pragma once
// What a 2-D view draws, computed without any graphics: point colours, markers, lines, shaded
// cells, labels, the legend and the picked point's facts for each view mode. The VTK scene only
// turns these into actors.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/join/run_stats.hpp"
#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"
#include "ui/views/grid_cells.hpp"
#include "ui/views/palette.hpp"
#include "ui/views/view_modes.hpp"
#include "ui/views/view_plane.hpp"

namespace simjoin::ui {

struct LegendEntry {
  std::string label;
  Rgb color;
  // A figure's key may say it shorter: `brief`, whose meaning its group's heading states once.
  std::string brief;
  int group = -1;  // index in Layers::legend_groups; -1: none
};

// Entries a figure's key may shorten to their briefs under `heading`, or replace by `summary` alone
// where even that does not fit ("10 partitions: colours as in the plot"), or by `least` ("10 partitions").
struct LegendGroup {
  std::string heading, summary;
  Rgb summary_color;
  std::string least;
};

struct Label {
  float x = 0, y = 0;
  std::string text;
};

struct Layers {
  std::vector<float> xy;           // displayed points
  std::vector<std::uint32_t> ids;  // their point ids
  std::vector<std::uint8_t> rgb;   // their colours
  std::vector<float> marker_xy;    // centroids
  std::vector<std::uint8_t> marker_rgb;
  std::vector<float> copy_xy;          // copies made by replication, at their points
  std::vector<std::uint8_t> copy_rgb;  // the receiving partition's colour
  std::vector<float> segments;         // x0, y0, x1, y1 per line segment
  std::vector<std::uint8_t> segment_rgb;
  std::vector<float> rects;  // x0, y0, x1, y1 per shaded cell, drawn with a thin border
  std::vector<std::uint8_t> rect_rgb;
  std::vector<Label> labels;  // text at view positions (centroid numbers)
  std::vector<LegendEntry> legend;
  std::vector<LegendGroup> legend_groups;
  std::vector<LegendEntry> picked_facts;  // what the picked point did, listed beside the legend
  std::vector<std::string> notes;         // shown under the view (decimation, why a layer is missing)
  bool small_points = false;              // points drawn small so that the layers under them read
  bool partial = false;                   // a first picture from a subset, which a drawing of all refines
};

struct ViewInput {
  const PointSet* points = nullptr;
  const Pca* pca = nullptr;  // required when axes.principal
  Axes axes;
  const std::vector<float>* projected = nullptr;  // all points on `axes`, n x 2
  ViewMode mode = ViewMode::Scatter;
  const RunStats* stats = nullptr;  // the run's engine and notes
  const PartitionStructure* partitions = nullptr;
  const GridStructure* grid = nullptr;
  double eps = 0;
  std::optional<std::uint32_t> selected_partition;
  std::optional<std::uint32_t> picked;
  PaletteKind palette = PaletteKind::Distinct;  // of the partitions
  std::size_t max_display = 1'000'000;          // above this, every m-th point is drawn
  // The view region (x0, y0, x1, y1) a zoomed figure shows: the Grid view's cells beyond it are left
  // out, so that the cells inside are drawn as themselves rather than grouped into super-cells.
  std::optional<std::array<double, 4>> region;
  // Above this many points (0: never), the Grid view counts the cells of an evenly spaced subset of
  // about this many, their counts scaled, and draws no pick's search: a first picture (Layers::partial)
  // while the drawing of all points is made.
  std::size_t cell_sample = 0;
  // Where the Grid view keeps every point's grid between drawings (none: made each time).
  PlaneGridCache* grid_cache = nullptr;

  // Shows what `result` (none: null) holds: its statistics and its partitions or grid.
  void show_run(const RunResult* result) {
    stats = result ? &result->stats : nullptr;
    partitions = result && result->partitions ? &*result->partitions : nullptr;
    grid = result && result->grid ? &*result->grid : nullptr;
  }
};

// Projects all points on the axes: n x 2.
std::vector<float> project_points(const PointSet& points, const Pca* pca, const Axes& axes);

Layers build_layers(const ViewInput& input);

}  // namespace simjoin::ui
