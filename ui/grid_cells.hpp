#pragma once
// The epsilon-grid of a grid engine, as the views draw it: cell coordinates of the non-empty cells
// and the cells a query point searches (all neighbours, or the unicomp half).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/point_set.hpp"
#include "core/run_stats.hpp"

namespace simjoin::ui {

struct GridCells {
  std::size_t dims = 0;                // indexed dimensions
  std::vector<std::int64_t> coords;    // cells x dims, one row per non-empty cell (in B's order)
  std::vector<std::uint32_t> counts;   // points per cell
};

// Coordinates and sizes of every non-empty cell. Throws Error(BadInput) when the structure's arrays
// disagree with each other or the points.
GridCells grid_cells(const GridStructure& grid, const PointSet& points);

// The cell (a row of grid_cells) the engine placed point `point` in; none for a far outlier, which
// run_engine joins apart from the grid (core/far_points.hpp).
std::optional<std::size_t> cell_of(const GridStructure& grid, std::uint32_t point);

struct Cell2d {
  std::int64_t x = 0, y = 0;
  std::uint32_t count = 0;  // points in all cells with these two coordinates
};
// The non-empty cells seen along two indexed dimensions (positions in indexed_dims).
std::vector<Cell2d> cells_in_plane(const GridCells& cells, std::size_t dim_x, std::size_t dim_y);

// Whether a query in cell `from` compares against the points of the adjacent cell `to`. With
// unicomp, per the last dimension k where they differ, only a cell with odd coordinate k searches.
// A cell always searches itself.
bool searches(const std::int64_t* from, const std::int64_t* to, std::size_t dims, bool unicomp);

// Rows of `cells` that a point in cell `from` searches.
std::vector<std::size_t> searched_cells(const GridCells& cells, const std::vector<std::int64_t>& from,
                                        bool unicomp);

}  // namespace simjoin::ui
