#pragma once
// Pairs grouped by row (their first point), the layout of both the ordered pair list and the CSR graph.
// Both are built from the collected pairs at little more than the memory of the result, checking for
// cancellation every few milliseconds.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "app/python/host_array.hpp"
#include "core/base/pair_rows.hpp"
#include "core/base/pair_sink.hpp"
#include "core/base/run_control.hpp"

namespace simjoin::python {

// visit_checked and row_offsets, shared with the --neighbors CSR files, are core's (core/base/pair_rows.hpp).

// Calls sort_range(begin, end) for ranges of rows covering the rows of `offsets` (row_offsets), in
// parallel, each range a few milliseconds of work between cancellation checks.
void for_row_ranges(const std::vector<std::int64_t>& offsets, RunControl& control,
                    const std::function<void(std::size_t, std::size_t)>& sort_range);

// The pairs in (i, j) order, every i being below `rows`, taken out of `pairs` (which ends empty): joined
// into one array block by block, each block freed once copied, then sorted there by an in-place radix
// sort (parts in parallel), so that the pairs are never held twice.
HostArray<Pair> sorted_by_row(PairListSink& pairs, std::size_t rows, RunControl& control);

}  // namespace simjoin::python
