#include "core/engines/grid_cell_search.hpp"

#include "core/engines/detail/grid_join.hpp"

namespace simjoin {

struct GridCellSearch::Join {
  Join(const PointRows& rows, const JoinInputs& frame, const JoinParams& params)
      : grid(rows, rows, true, frame, params), tasks(grid.tasks(true)) {
    // A cell's tasks are consecutive, in cell order: first[c] is cell c's first.
    first.assign(grid.query_cells().cell_count() + 1, std::uint32_t(tasks.size()));
    for (std::size_t t = tasks.size(); t-- > 0;) first[tasks[t].cell] = std::uint32_t(t);
  }
  GridJoin grid;
  std::vector<GridTask> tasks;
  std::vector<std::uint32_t> first;
};

GridCellSearch::GridCellSearch(const JoinInputs& frame, const JoinParams& params,
                               const std::vector<std::uint32_t>* rows)
    : join_(std::make_unique<Join>(rows ? PointRows(*frame.a, rows->data(), rows->size()) : PointRows(*frame.a), frame,
                                   params)) {}

GridCellSearch::~GridCellSearch() = default;

const GridStructure& GridCellSearch::cells() const { return join_->grid.query_cells(); }

const std::string& GridCellSearch::choice() const { return join_->grid.grid().choice(); }

std::uint64_t GridCellSearch::search(std::uint32_t cell, const Hit& hit) const {
  std::uint64_t tests = 0;
  for (std::size_t t = join_->first[cell]; t < join_->tasks.size() && join_->tasks[t].cell == cell; ++t)
    tests += join_->grid.run(join_->tasks[t], hit);
  return tests;
}

}  // namespace simjoin
