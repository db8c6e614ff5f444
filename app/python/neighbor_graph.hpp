#pragma once
// A join's pairs as a sparse neighbour graph: the three CSR arrays, laid out as scikit-learn's
// radius_neighbors_graph lays them out, for scipy.sparse.csr_matrix to take as they are.
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "app/python/host_array.hpp"
#include "core/join/engine.hpp"

namespace simjoin::python {

// Index is the integer type of the columns and of the row offsets as handed to NumPy.
template <typename Index>
struct NeighborGraph {
  std::vector<std::int64_t> indptr;  // row r's entries are [indptr[r], indptr[r + 1])
  HostArray<Index> indices;          // their columns
  HostArray<double> data;            // 1.0, or the distance
};

// int32 indices wherever the graph's entries and columns fit them, as SciPy would narrow them: SciPy
// then takes the arrays as they are, where narrowing int64 ones would hold the caller for a second
// at 10^8 pairs, beyond the reach of Ctrl-C; int64 beyond.
using AnyNeighborGraph = std::variant<NeighborGraph<std::int32_t>, NeighborGraph<std::int64_t>>;

struct GraphLayout {
  bool distances = false;     // data: the distance rather than 1.0
  bool include_self = false;  // self-joins: each point its own neighbour, on the diagonal
};

// Rows are the points of A and columns those of B; for a self-join, of A, each pair giving both (i, j)
// and (j, i). With `distances`, data is each pair's float64 Euclidean distance computed from the
// points' values, and each row is sorted by (distance, column), the order scikit-learn expects of a
// precomputed graph; otherwise data is 1.0 and rows are sorted by column. Pairs may come in any
// order; they are taken out of `pairs` (which ends empty), each block freed once placed. Checks
// `control` for cancellation every few milliseconds.
AnyNeighborGraph neighbor_graph(PairListSink& pairs, const JoinSources& sources, GraphLayout layout,
                                RunControl& control);

}  // namespace simjoin::python
