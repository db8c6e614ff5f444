// GPU-SJ replayed cell by cell, with the epsilon-grid join cpu-grid runs (core/engines/grid_cell_search.hpp):
// the same grid, cell order and unicomp rule as gpu-grid, on the CPU.
#include <cstdlib>
#include <string>

#include "core/engines/grid_cell_search.hpp"
#include "core/frame/join_frame.hpp"
#include "ui/step_through/join_steps.hpp"
#include "ui/step_through/replay.hpp"
#include "ui/views/grid_cells.hpp"

namespace simjoin::ui {

namespace {
bool adjacent(const std::int64_t* a, const std::int64_t* b, std::size_t m) {
  for (std::size_t s = 0; s < m; ++s)
    if (std::llabs(a[s] - b[s]) > 1) return false;
  return true;
}

std::string cell_name(const std::int64_t* c, std::size_t m) {
  std::string name = "(";
  for (std::size_t s = 0; s < m; ++s) name += (s ? ", " : "") + std::to_string(c[s]);
  return name + ")";
}

// The points of the cells adjacent to `cell` that it searches, and of those unicomp leaves to their
// own points (each such pair is tested from the other cell).
void neighbour_points(const GridStructure& grid, std::uint32_t cell, JoinStep& step) {
  const std::size_t m = grid.indexed_dims.size();
  const std::int64_t* home = &grid.cell_coords[cell * m];
  for (std::uint32_t t = 0; t < grid.cell_count(); ++t) {
    const std::int64_t* other = &grid.cell_coords[t * m];
    if (t == cell || !adjacent(home, other, m)) continue;
    const bool searched = searches(home, other, m, true);
    (searched ? step.searched_cells : step.skipped_cells).push_back(t);
    auto& points = searched ? step.searched : step.skipped;
    points.insert(points.end(), grid.point_order.begin() + grid.cell_begin[t],
                  grid.point_order.begin() + grid.cell_end[t]);
  }
}
}  // namespace

StepThrough grid_join_steps(const PointSet& points, double eps) {
  StepThrough run = sample_for_steps(points, eps, kGridStepSpread);
  run.algorithm = "GPU-SJ";
  run.engine = "cpu-grid";
  replay_in_frame(run.points, run.eps, [&](const JoinInputs& in, const JoinParams& params) {
    const GridCellSearch search(in, params);
    const GridStructure& grid = search.cells();
    const std::size_t m = grid.indexed_dims.size();
    const ExactPairTest is_pair = in.pair_test();
    StepCounters counters;
    for (std::uint32_t cell = 0; cell < grid.cell_count(); ++cell) {
      JoinStep step;
      step.kind = StepKind::CellSearch;
      step.state = cell;
      step.focus.assign(grid.point_order.begin() + grid.cell_begin[cell],
                        grid.point_order.begin() + grid.cell_end[cell]);
      neighbour_points(grid, cell, step);
      const std::uint64_t pairs_before = counters.pairs;
      counters.distance_tests += search.search(cell, [&](std::uint32_t q, std::uint32_t p, float d2) {
        ++counters.candidates;
        counters.pairs += is_pair(d2, p, q);
      });
      step.counters = counters;
      step.text = "cell " + cell_name(&grid.cell_coords[cell * m], m) + ": its " + std::to_string(step.focus.size()) +
                  " points search their own cell and " + std::to_string(step.searched.size()) +
                  " points of neighbour cells; unicomp leaves " + std::to_string(step.skipped.size()) +
                  " to their own cells; " + std::to_string(counters.pairs - pairs_before) + " new pairs";
      run.steps.push_back(std::move(step));
    }
    run.notes.push_back(search.choice());
    const JoinFrame frame(run.points, nullptr, run.eps);
    run.indexed_dims = grid.indexed_dims;
    for (std::size_t s = 0; s < m; ++s)
      run.grid_origin.push_back(frame.to_file_coordinate(grid.origin[s], std::size_t(grid.indexed_dims[s])));
    run.cell_width = frame.to_file_length(grid.cell_width);
    run.cell_coords = grid.cell_coords;
  });
  return run;
}

}  // namespace simjoin::ui
