#pragma once
// The epsilon-grid of the viewed plane, as the Grid view draws it: cells `width` wide along the two
// viewed axes, identified by integer coordinates (cell_floor, core/numeric/numeric_rules.hpp),
// so that far outliers add cells of their own but never widen the others. Any 2-D projection of a
// join is a valid index for it (a projection never lengthens a distance), so this grid can be shown
// for every data set, whatever the engine's own grid indexes.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/join/run_stats.hpp"

namespace simjoin::ui {

using CellXY = std::array<std::int64_t, 2>;

struct Cell2d {
  std::int64_t x = 0, y = 0;
  std::uint32_t count = 0;  // points in the cell
};

struct PlaneGrid {
  double width = 0;
  std::array<double, 2> origin{};  // cell (x, y) covers [origin + x w, origin + (x + 1) w) per axis
  std::vector<CellXY> point_cell;  // per point
  std::vector<bool> has_cell;      // false for a point too far out for an int64 coordinate
  std::vector<Cell2d> cells;       // the non-empty cells, sorted by (y, x)
};

// cell_floor(x, origin, width) (core/numeric/numeric_rules.hpp), the same value for every input, from
// a plain quotient wherever that lies far from a cell border: the view's cells at a fraction of the cost.
std::int64_t display_cell(double x, double origin, double width);

// The last grid of every point a view drew, kept for its next drawing of the same plane (a pick, a new
// palette): at 20 M points one takes seconds to make. One grid at a time; safe from any thread.
class PlaneGridCache {
 public:
  // The grid kept for `key` (what it was made from), else the one `make` makes, then kept.
  std::shared_ptr<const PlaneGrid> get(const std::string& key, const std::function<PlaneGrid()>& make);

 private:
  std::mutex mutex_;
  std::string key_;
  std::shared_ptr<const PlaneGrid> grid_;
};

// The grid of points at plane coordinates `st` (n x 2). Throws Error(Usage) for width <= 0.
PlaneGrid plane_grid(const std::vector<double>& st, double width, std::array<double, 2> origin);

// The 2-D grid of an engine's own cells (core/join/run_stats.hpp) along two of its indexed slots:
// their cells and point counts summed over the other slots, without the points' own cells (empty
// point_cell). Each cell's count is its point range's length, so no pass over the points is needed.
PlaneGrid engine_plane_grid(const GridStructure& grid, std::size_t slot_x, std::size_t slot_y);

// The coordinate-wise median of `st` (n x 2): an origin that far outliers do not move.
std::array<double, 2> median_origin(const std::vector<double>& st);

// The cells grouped into super-cells of factor x factor cells (coordinates floor(c / factor)),
// their counts summed, sorted by (y, x).
std::vector<Cell2d> aggregate_cells(const std::vector<Cell2d>& cells, std::int64_t factor);

// Whether a query in cell `from` compares against the points of the adjacent cell `to`. With
// unicomp, per the last dimension k where they differ, only a cell with odd coordinate k searches.
// A cell always searches itself.
bool searches(const std::int64_t* from, const std::int64_t* to, std::size_t dims, bool unicomp);

}  // namespace simjoin::ui
