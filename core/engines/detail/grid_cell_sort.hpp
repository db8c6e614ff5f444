#pragma once
// Sorting rows into an epsilon-grid's cells (A, B and G of core/engines/detail/epsilon_grid.hpp), in the cell
// order of grid_cell_order.hpp.
#include <vector>

#include "core/base/run_control.hpp"
#include "core/engines/detail/point_rows.hpp"
#include "core/join/run_stats.hpp"

namespace simjoin {

// Per slot of g (cell width, indexed dimensions, origin): how many bits the cell coordinates of
// points up to `high` (per dimension) take. A guess for sort_into_cells, which checks it.
std::vector<int> cell_coordinate_bits(const GridStructure& g, const std::vector<double>& high);

// Sets point_order, cell_coords, cell_begin and cell_end of `out` for `rows` in the geometry of g;
// within a cell the rows keep their order. `bits` (cell_coordinate_bits) lets most grids sort one
// 64-bit word a row, cells above row numbers. Runs on `threads` threads; checks `control` (if any)
// between its passes and throws Error(Cancelled) once it is cancelled.
void sort_into_cells(const PointRows& rows, const GridStructure& g, const std::vector<int>& bits, int threads,
                     GridStructure& out, const RunControl* control);

}  // namespace simjoin
