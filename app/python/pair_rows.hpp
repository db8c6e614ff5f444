#pragma once
// Pairs grouped by row (their first point), the layout of both the ordered pair list and the CSR graph.
#include <cstdint>
#include <span>
#include <vector>

#include "core/pair_sink.hpp"
#include "core/run_control.hpp"

namespace simjoin::python {

// Where each of `rows` rows starts once the pairs are grouped by row: a row holds its pairs (i, j) and,
// with `both_ends`, those (j, i) too, plus `extra` entries of its own. The last offset is the total.
std::vector<std::int64_t> row_offsets(std::span<const Pair> pairs, std::size_t rows, bool both_ends,
                                      int extra = 0);

// The pairs in (i, j) order, every i being below `rows`. A counting sort on i, then each
// row's few pairs sorted, rows in parallel: far faster than one comparison sort of millions of pairs.
// Checks `control` for cancellation.
std::vector<Pair> sorted_by_row(std::span<const Pair> pairs, std::size_t rows, RunControl& control);

}  // namespace simjoin::python
