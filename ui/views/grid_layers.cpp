#include "ui/views/grid_layers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "ui/format/count_text.hpp"
#include "ui/views/grid_cells.hpp"
#include "ui/views/grid_search.hpp"
#include "ui/views/layer_geometry.hpp"
#include "ui/views/picking.hpp"

namespace simjoin::ui {

namespace {

constexpr Rgb kLightCell{198, 219, 239};
constexpr Rgb kDarkCell{8, 48, 107};
constexpr Rgb kSearchBlock{0, 0, 0};       // outline of the 3 x 3 cells around the picked point
constexpr Rgb kSearchedHatch{0, 150, 60};  // cells it searches
constexpr Rgb kSkippedHatch{140, 86, 75};  // cells unicomp leaves to their own points
constexpr Rgb kEpsCircle{230, 85, 13};
constexpr Rgb kCandidate{0, 170, 200};  // tested, farther than eps

// The view's axes as two slots of the engine's grid, when both are raw dimensions it indexes.
struct Aligned {
  std::size_t x, y;  // positions in indexed_dims
};

std::optional<Aligned> aligned_slots(const GridStructure& g, const Axes& axes) {
  if (axes.principal || axes.a == axes.b) return std::nullopt;
  const auto slot = [&](std::size_t dim) -> std::optional<std::size_t> {
    const auto it = std::find(g.indexed_dims.begin(), g.indexed_dims.end(), static_cast<int>(dim));
    if (it == g.indexed_dims.end()) return std::nullopt;
    return static_cast<std::size_t>(it - g.indexed_dims.begin());
  };
  const auto x = slot(axes.a), y = slot(axes.b);
  if (!x || !y) return std::nullopt;
  return Aligned{*x, *y};
}

// What the engine's grid indexes and why: its own note where it left one, else its dimensions.
std::string engine_grid_text(const ViewInput& in) {
  if (in.stats)
    for (const std::string& note : in.stats->notes)
      if (note.rfind("indexed ", 0) == 0) return note;
  std::string dims;
  for (int dim : in.grid->indexed_dims) dims += (dims.empty() ? "" : ", ") + std::to_string(dim);
  return "indexed dimensions: " + (dims.empty() ? std::string("none") : dims);
}

void explain_grid(const ViewInput& in, const std::optional<Aligned>& aligned, Layers& out) {
  const std::string engine = in.stats ? in.stats->engine : std::string("the engine");
  if (!in.grid) {
    out.notes.push_back(
        "The epsilon-grid of the viewed axes (cell width eps), computed by the view; run a grid "
        "engine (cpu-grid) to see which dimensions its own grid indexes");
    return;
  }
  const std::string own = engine + "'s grid: " + engine_grid_text(in);
  if (aligned) {
    out.notes.push_back("Cells of " + own + ". Shown along the two viewed dimensions.");
    if (in.grid->indexed_dims.size() > 2 || aligned->x != 0 || aligned->y != 1)
      out.notes.push_back(
          "The picked point's search is drawn as a 2-D grid on these axes would make it; the "
          "engine's grid searches 3^" +
          std::to_string(in.grid->indexed_dims.size()) + " cells in its own dimension order");
    return;
  }
  out.notes.push_back(own);
  out.notes.push_back(
      "Shown: the epsilon-grid of the viewed axes (cell width eps), computed by the view, which is just as "
      "valid: a projection never lengthens a distance. Choose two indexed raw dimensions as X and Y to see "
      "the engine's own cells.");
}

Point2 cell_low(const PlaneGrid& grid, CellXY c, std::int64_t factor = 1) {
  return {grid.origin[0] + double(c[0] * factor) * grid.width, grid.origin[1] + double(c[1] * factor) * grid.width};
}

Point2 cell_high(const PlaneGrid& grid, CellXY c, std::int64_t factor = 1) {
  return cell_low(grid, {c[0] + 1, c[1] + 1}, factor);
}

// The non-empty cells that reach into `region` (all of them without one).
std::vector<Cell2d> cells_in(const PlaneGrid& grid, const std::optional<std::array<double, 4>>& region) {
  if (!region) return grid.cells;
  std::vector<Cell2d> inside;
  for (const Cell2d& c : grid.cells) {
    const Point2 low = cell_low(grid, {c.x, c.y}), high = cell_high(grid, {c.x, c.y});
    if (high[0] >= (*region)[0] && low[0] <= (*region)[2] && high[1] >= (*region)[1] && low[1] <= (*region)[3])
      inside.push_back(c);
  }
  return inside;
}

// The cells, grouped into super-cells of `factor` x `factor` while there are more than kMaxDrawnCells.
std::vector<Cell2d> cells_to_draw(const std::vector<Cell2d>& shown, std::int64_t& factor) {
  factor = 1;
  std::vector<Cell2d> cells = shown;
  while (cells.size() > kMaxDrawnCells) {
    factor *= 2;
    cells = aggregate_cells(shown, factor);
  }
  return cells;
}

// Where the cells are drawn: a figure's region; or, where the whole grid would need super-cells and a
// point is picked (at plane coordinates `pick`), the 17 x 17 cells around it (the view zooms to its
// 3 x 3), noted; else everywhere.
std::optional<std::array<double, 4>> cells_region(const ViewInput& in, const PlaneGrid& grid,
                                                  const std::optional<Point2>& pick, Layers& out) {
  if (in.region || !pick || grid.cells.size() <= kMaxDrawnCells) return in.region;
  const double x = (*pick)[0], y = (*pick)[1], reach = 8 * grid.width;
  out.notes.push_back("Cells drawn around the picked point only: the grid's " + std::to_string(grid.cells.size()) +
                      " non-empty cells would be drawn as super-cells; clear the pick to see them all");
  return std::array<double, 4>{x - reach, y - reach, x + reach, y + reach};
}

// The origin of the view's own grid: the median of at most 65,536 evenly spaced points (far outliers
// do not move it), so that a first picture from a subset and the drawing of all points share cells.
std::array<double, 2> view_origin(const PointSet& points, const ViewPlane& plane) {
  const std::size_t stride = std::max<std::size_t>(1, (points.size() + 65'535) / 65'536);
  return median_origin(plane_coordinates(points, plane, stride));
}

// What a grid of the points is made from, as a cache's key.
std::string grid_key(const ViewInput& in, double width, const std::array<double, 2>& origin) {
  char key[256];
  std::snprintf(key, sizeof key, "%p %p %zu %d %zu %zu %a %a %a", static_cast<const void*>(in.points),
                static_cast<const void*>(in.pca), in.points->size(), int(in.axes.principal), in.axes.a, in.axes.b,
                width, origin[0], origin[1]);
  return key;
}

// The grid of every point (kept in the view's cache), or, for a first picture, of every stride-th
// with its counts scaled.
std::shared_ptr<const PlaneGrid> points_grid(const ViewInput& in, const ViewPlane& plane, double width,
                                             const std::optional<std::array<double, 2>>& engine_origin,
                                             std::size_t stride, Layers& out) {
  const std::array<double, 2> origin = engine_origin ? *engine_origin : view_origin(*in.points, plane);
  const auto make = [&] { return plane_grid(plane_coordinates(*in.points, plane, stride), width, origin); };
  if (stride == 1)
    return in.grid_cache ? in.grid_cache->get(grid_key(in, width, origin), make)
                         : std::make_shared<const PlaneGrid>(make());
  PlaneGrid grid = make();
  for (Cell2d& cell : grid.cells)
    cell.count = std::uint32_t(
        std::min<std::uint64_t>(std::uint64_t(cell.count) * stride, std::numeric_limits<std::uint32_t>::max()));
  out.partial = true;
  out.notes.push_back("A first picture: the cells of every " + std::to_string(stride) +
                      "th point, their counts times " + std::to_string(stride) +
                      (in.picked ? ", without the pick's search" : "") + "; every point's cell is being counted");
  return std::make_shared<const PlaneGrid>(std::move(grid));
}

// The count of a drawn cell nearest `target` on the log scale: every shade the legend shows is a
// shade in the figure.
std::uint32_t drawn_count_near(const std::vector<Cell2d>& cells, double target) {
  std::uint32_t best = 1;
  double best_distance = INFINITY;
  for (const Cell2d& c : cells) {
    const double distance = std::abs(std::log(double(std::max<std::uint32_t>(c.count, 1)) / target));
    if (distance < best_distance || (distance == best_distance && c.count < best))
      best = c.count, best_distance = distance;
  }
  return best;
}

void draw_cells(const PlaneGrid& grid, const std::optional<std::array<double, 4>>& region, Layers& out) {
  std::int64_t factor = 1;
  const std::vector<Cell2d> shown = cells_in(grid, region);
  const std::vector<Cell2d> cells = cells_to_draw(shown, factor);
  std::uint32_t max_count = 1, min_count = cells.empty() ? 1 : cells.front().count;
  for (const Cell2d& c : cells) max_count = std::max(max_count, c.count), min_count = std::min(min_count, c.count);
  for (const Cell2d& c : cells)
    add_rect(out, cell_low(grid, {c.x, c.y}, factor), cell_high(grid, {c.x, c.y}, factor),
             occupancy_shade(c.count, max_count));
  const std::string unit = factor > 1 ? "super-cell" : "cell";
  if (factor > 1)
    out.notes.push_back(std::to_string(shown.size()) + " non-empty cells drawn as " + std::to_string(cells.size()) +
                        " super-cells of " + std::to_string(factor) + " x " + std::to_string(factor) +
                        " cells (more than " + std::to_string(kMaxDrawnCells) +
                        " would draw slowly); zoom needs no super-cells below that");
  // A log-scaled legend: counts at even steps of log(count), 1 to the fullest.
  const int group = int(out.legend_groups.size());
  out.legend_groups.push_back(
      {"points per " + unit + " (shade, log scale)",
       unit + "s: " + count_text(min_count) + " to " + count_text(max_count) + " points (log shade)",
       occupancy_shade(max_count, max_count),
       unit + "s: " + count_text(min_count) + " to " + count_text(max_count) + " points"});
  std::uint32_t previous = 0;
  for (int step = 0; step <= 4; ++step) {
    const std::uint32_t count = drawn_count_near(cells, std::pow(double(max_count), step / 4.0));
    if (count == previous) continue;
    previous = count;
    out.legend.push_back({unit + " with " + std::to_string(count) + (count == 1 ? " point" : " points") +
                              (step == 4 ? " (fullest; log scale)" : ""),
                          occupancy_shade(count, max_count), count_text(count), group});
  }
}

void draw_search(const ViewInput& in, const PlaneGrid& grid, bool unicomp, Layers& out, std::vector<Rgb>& colors) {
  const std::uint32_t i = *in.picked;
  if (in.grid && std::find(in.grid->point_order.begin(), in.grid->point_order.end(), i) == in.grid->point_order.end())
    out.notes.push_back(
        "The picked point lies far outside the rest: the engine's grid holds no cell for it, and "
        "it was joined with every point apart from the grid, in float64");
  if (!grid.has_cell[i]) {
    out.notes.push_back("The picked point lies too far out for a cell of the view's grid");
    return;
  }
  const GridSearch search = search_from(grid, *in.points, i, in.eps, unicomp);
  const std::vector<std::uint32_t> all = neighbours_within(*in.points, i, in.eps);
  for (std::uint32_t q : search.candidates) colors[q] = kCandidate;
  for (std::uint32_t q : all) colors[q] = kNeighbour;
  const Point2 p{(*in.projected)[2 * i], (*in.projected)[2 * i + 1]};
  for (std::uint32_t q : search.found)
    add_segment(out, p, {(*in.projected)[2 * q], (*in.projected)[2 * q + 1]}, kNeighbour);
  for (const CellXY& c : search.searched)
    add_hatch(out, cell_low(grid, c), cell_high(grid, c), true, 4, kSearchedHatch);
  for (const CellXY& c : search.skipped) add_hatch(out, cell_low(grid, c), cell_high(grid, c), false, 4, kSkippedHatch);
  const Point2 low = cell_low(grid, {search.home[0] - 1, search.home[1] - 1});
  const Point2 high = cell_high(grid, {search.home[0] + 1, search.home[1] + 1});
  add_polygon(out, {low[0], low[1], high[0], low[1], high[0], high[1], low[0], high[1]}, kSearchBlock);
  add_circle(out, p, in.eps, kEpsCircle);

  out.legend.push_back({"the 3 x 3 cells around the picked point", kSearchBlock, "3 x 3 cells"});
  out.legend.push_back({"eps-circle of the picked point (in the view plane)", kEpsCircle, "eps-circle"});
  auto& facts = out.picked_facts;
  facts.push_back({"point " + std::to_string(i) + " in cell (" + std::to_string(search.home[0]) + ", " +
                       std::to_string(search.home[1]) + ")",
                   kPicked});
  facts.push_back(
      {"cells searched: " + std::to_string(search.searched.size()) + " of the 9 (/ hatch)", kSearchedHatch});
  if (unicomp)
    facts.push_back({"unicomp skips " + std::to_string(search.skipped.size()) +
                         " cells (\\ hatch): " + count_text(search.saved) + " tests saved",
                     kSkippedHatch});
  facts.push_back({"candidates tested: " + std::to_string(search.candidates.size()), kCandidate});
  facts.push_back(
      {"neighbours found: " + std::to_string(search.found.size()) + " of " + std::to_string(all.size()), kNeighbour});
  if (search.found.size() < all.size())
    facts.push_back({std::to_string(all.size() - search.found.size()) + " find it from their own cells", kNeighbour});
}

}  // namespace

Rgb occupancy_shade(std::uint32_t count, std::uint32_t max_count) {
  const double t =
      max_count > 1 ? std::log(double(std::max<std::uint32_t>(count, 1))) / std::log(double(max_count)) : 0;
  Rgb shade;
  for (int c = 0; c < 3; ++c)
    shade[c] = static_cast<std::uint8_t>(std::lround(kLightCell[c] + t * (kDarkCell[c] - kLightCell[c])));
  return shade;
}

void grid_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  const std::optional<Aligned> aligned = in.grid ? aligned_slots(*in.grid, in.axes) : std::nullopt;
  explain_grid(in, aligned, out);
  const double width = aligned ? in.grid->cell_width : in.eps;
  if (!(width > 0)) {
    out.notes.push_back("Set eps to see the grid");
    return;
  }
  // Every point's cell: for the view's own grid, and for a pick's search; a first picture counts a subset's.
  const std::size_t n = in.points->size();
  const std::size_t stride = in.cell_sample && n > in.cell_sample ? (n + in.cell_sample - 1) / in.cell_sample : 1;
  std::shared_ptr<const PlaneGrid> all_points;
  std::optional<Point2> pick;
  if (!aligned || in.picked) {
    const ViewPlane plane = view_plane(*in.points, in.pca, in.axes);
    if (in.picked) pick = to_plane(plane, in.points->point(*in.picked));
    const auto engine_origin = aligned ? std::optional<std::array<double, 2>>(std::array<double, 2>{
                                             in.grid->origin[aligned->x], in.grid->origin[aligned->y]})
                                       : std::nullopt;
    all_points = points_grid(in, plane, width, engine_origin, stride, out);
  }
  // Along the engine's indexed dimensions, its own cells, counted from their point ranges.
  const PlaneGrid engine = aligned ? engine_plane_grid(*in.grid, aligned->x, aligned->y) : PlaneGrid{};
  const PlaneGrid& cells = aligned ? engine : *all_points;
  draw_cells(cells, cells_region(in, cells, pick, out), out);
  // Small grey points, so that the cells' occupancy shading stays readable under them.
  std::fill(colors.begin(), colors.end(), kGridPoint);
  out.small_points = true;
  out.legend.insert(out.legend.begin(), {"points", kGridPoint});
  if (in.picked && !out.partial) draw_search(in, *all_points, in.grid ? in.grid->unicomp : true, out, colors);
}

}  // namespace simjoin::ui
