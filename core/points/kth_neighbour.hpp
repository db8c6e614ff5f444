#pragma once
// The exact distance from a few query points to their k-th nearest neighbour among ALL points of a
// set of any size (the oracle's float64 distances), in about a second for 20 million points: the
// k-th neighbour within a random sample bounds each query's radius from above, a coarse grid over
// the widest axes finds the points that can lie inside those radii, and one parallel pass over all
// points keeps each query's k nearest.
#include <cstddef>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct NeighbourDistances {
  std::vector<std::size_t> rows;  // the queries measured (all asked for, or an evenly spaced subset)
  std::vector<double> kth;        // per query, the distance to its k-th nearest other point
  std::vector<double> nearest;    // per query, the distance to its nearest other point
};

// `query_rows` are rows of `points`; a query is never its own neighbour (duplicates are). Where
// testing every query against the points inside its radius would take more than a few seconds
// (high dimensions, where a grid cannot narrow the search), an evenly spaced subset of at least 100
// queries is measured. k is capped at n - 1. Cancellable through `control`.
NeighbourDistances kth_neighbour_distances(const PointSet& points, const std::vector<std::size_t>& query_rows,
                                           std::size_t k, RunControl& control);

}  // namespace simjoin
