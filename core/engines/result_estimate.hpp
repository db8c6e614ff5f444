#pragma once
// The size of a join's result before running it, so that commands that keep pairs in memory can
// refuse a result that cannot fit (and say how to get it instead).
#include <cstdint>

#include "core/join/engine.hpp"

namespace simjoin {

// Pairs expected: an exact count on a random sample of each set (cpu-grid, count only), scaled by
// the ratio of candidate pairs. Exact when the sets are no larger than the sample; otherwise good to
// a few per cent for the large results it guards against.
double estimate_result_pairs(const JoinSources& sources, double eps, RunControl& control);

// Throws Error(OutOfMemory) when keeping an estimated `pairs` pairs in host memory would not fit,
// naming the estimate, the memory available and `way_out` (what to do instead).
void require_pairs_fit_in_memory(double pairs, const std::string& way_out);

}  // namespace simjoin
