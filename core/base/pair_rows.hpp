#pragma once
// Pairs grouped by row (their first point): the one place that hands a result's pairs over in
// cancellable pieces and counts where each row starts, for the --neighbors CSR files
// (core/io/pair_writers.hpp) and the Python module's ordered pairs and neighbour graph.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/base/run_control.hpp"

namespace simjoin {

// A result's pairs, handed to `visit` block by block; callable as often as needed (a list in memory,
// or a pair file read again).
using PairBlocks = std::function<void(const std::function<void(std::span<const Pair>)>& visit)>;

// Pairs handed over in pieces of a few milliseconds of work each, with a cancellation check before
// each (none without a control).
void visit_checked(const PairBlocks& pairs, const RunControl* control,
                   const std::function<void(std::span<const Pair>)>& visit);
// The same for collected pairs; with `drain`, each block is freed once visited (the sink ends empty).
void visit_checked(PairListSink& pairs, const RunControl& control,
                   const std::function<void(std::span<const Pair>)>& visit, bool drain = false);

// Where each of `rows` rows starts once the pairs are grouped by row: a row holds its pairs (i, j) and,
// with `both_ends`, those (j, i) too, plus `extra` entries of its own. The last offset is the total.
// A pair whose row lies beyond `rows` is an Error(Internal).
std::vector<std::int64_t> row_offsets(const PairBlocks& pairs, std::size_t rows, bool both_ends, int extra,
                                      const RunControl* control);
std::vector<std::int64_t> row_offsets(PairListSink& pairs, std::size_t rows, bool both_ends, int extra,
                                      const RunControl& control);

}  // namespace simjoin
