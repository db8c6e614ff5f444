#pragma once
// How many dimensions an epsilon-grid indexes. Each indexed dimension triples the neighbour rows a
// query cell looks up and cuts the candidates by a factor that depends on the data (little for a
// dense cluster, much for sparse uniform data), so the costs are estimated from a sample of the
// queries, each counted exactly against every point.
#include <string>

#include "core/base/run_control.hpp"
#include "core/engines/detail/point_rows.hpp"
#include "core/join/run_stats.hpp"

namespace simjoin {

struct IndexChoice {
  std::size_t dims = 0;  // how many of the candidate dimensions to index (a prefix of them)
  std::string reason;    // the estimates behind the choice, for the run's notes
  // The estimated distance tests at that choice over every pair of a query and a point (1: no
  // pruning at all), counting each pair from both sides as the estimate does.
  double tested_share = 1;
};

// Where the chosen grid is still estimated to test more than this share of all pairs it cannot prune
// the data at this eps (wide overlapping neighbourhoods, many dimensions): its cell lookups and short
// row scans then cost more than the tests they save, and the tiled nested loop (cpu-nlj), which scans
// every pair in long vectorised blocks, is as fast or faster. cpu-grid and cpu-kmeans join by it there.
inline constexpr double kGridCannotPruneShare = 0.5;

// `candidates` is the grid's geometry over every dimension that may be indexed, most useful first
// (cell_width, indexed_dims, origin); the choice is the prefix of them with the least estimated
// cost: row lookups per query cell, set-up per query point and row, and distance tests.
// Counts on `threads` threads (0: all cores); throws Error(Cancelled) once `control` (if any) is
// cancelled.
IndexChoice choose_indexed_dims(const PointRows& points, const PointRows& queries, bool self_join,
                                const GridStructure& candidates, int threads, const RunControl* control);

}  // namespace simjoin
