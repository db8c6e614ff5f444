#pragma once
// The epsilon-grid of Gowanlock & Karsin: cells a hair wider than the search radius (grid_cell_width in
// core/numeric_rules.hpp) over a few chosen dimensions, non-empty cells only (B: sorted cell
// coordinates, G: point ranges, A: point ids by cell, M: per dimension the non-empty cell coordinates).
// The points' coordinates are also kept in cell order, one column per dimension, so that comparing a
// query with a run of adjacent cells is one contiguous loop.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/engines/point_rows.hpp"
#include "core/run_control.hpp"
#include "core/run_stats.hpp"

namespace simjoin {

// Memory of a cell grouping: coordinates, ranges and point order.
std::uint64_t cell_bytes(const GridStructure& cells);

class EpsilonGrid {
 public:
  // At most this many indexed dimensions (3^7 = 2187 neighbour rows per cell).
  static constexpr std::size_t kMaxIndexed = 8;

  // Indexes `points` for queries from `queries` (the same rows for a self-join). The cells cover
  // both sets; the indexed dimensions are as many of the widest as the cost model (grid_cost.hpp)
  // expects to be cheapest. Row numbers in the structure are positions in `points`. Builds on
  // `threads` threads (0: all cores); throws Error(Cancelled) once `control` (if any) is cancelled.
  EpsilonGrid(const PointRows& points, const PointRows& queries, bool self_join, double search_radius,
              int threads, const RunControl* control = nullptr);

  const GridStructure& structure() const { return grid_; }
  GridStructure take_structure() { return std::move(grid_); }
  std::size_t indexed() const { return grid_.indexed_dims.size(); }
  // Why this many dimensions are indexed, for the run's notes.
  const std::string& choice() const { return choice_; }

  // Groups other rows (the queries of A join B) by this grid's cells, in the form of structure().
  GridStructure group(const PointRows& rows) const;

  // Cell coordinate of point p in slot s of the geometry in g (cell width, indexed dimensions,
  // origin): at least 0 and below 2^60 + 3 (see grid_cell_width in core/numeric_rules.hpp).
  static std::int64_t cell_coordinate(const GridStructure& g, const float* p, std::size_t s);
  // True when some point has coordinate c in slot s (the M filter).
  bool occupied(std::size_t s, std::int64_t c) const;
  // Positions [begin, end) in cell order of the points in the row of cells (c[0] - 1 .. c[0] + 1,
  // c[1], ..., c[m-1]); contiguous because the cells are sorted with the first slot varying fastest.
  std::pair<std::uint32_t, std::uint32_t> row(const std::int64_t* c) const;
  // Coordinate k of every point, in cell order.
  const float* column(std::size_t k) const { return columns_.data() + k * grid_.point_order.size(); }

  std::uint64_t memory_bytes() const;

 private:
  GridStructure grid_;
  std::vector<std::vector<std::int64_t>> occupied_;  // M, sorted
  std::vector<float> columns_;                       // d columns of n coordinates, cell order
  std::string choice_;
  int threads_;
};

}  // namespace simjoin
