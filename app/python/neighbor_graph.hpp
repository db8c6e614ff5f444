#pragma once
// A join's pairs as a sparse neighbour graph: the three CSR arrays, laid out as scikit-learn's
// radius_neighbors_graph lays them out, for scipy.sparse.csr_matrix to take as they are.
#include <cstdint>
#include <span>
#include <vector>

#include "core/engine.hpp"

namespace simjoin::python {

struct NeighborGraph {
  std::vector<std::int64_t> indptr;   // row r's entries are [indptr[r], indptr[r + 1])
  std::vector<std::int64_t> indices;  // their columns
  std::vector<double> data;           // 1.0, or the distance
};

struct GraphLayout {
  bool distances = false;     // data: the distance rather than 1.0
  bool include_self = false;  // self-joins: each point its own neighbour, on the diagonal
};

// Rows are the points of A and columns those of B; for a self-join, of A, each pair giving both (i, j)
// and (j, i). With `distances`, data is each pair's float64 Euclidean distance computed from the
// points' values, and each row is sorted by (distance, column), the order scikit-learn expects of a
// precomputed graph; otherwise data is 1.0 and rows are sorted by column. Pairs may come in any
// order. Checks `control` for cancellation.
NeighborGraph neighbor_graph(std::span<const Pair> pairs, const JoinSources& sources, GraphLayout layout,
                             RunControl& control);

}  // namespace simjoin::python
