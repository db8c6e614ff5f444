#pragma once
// Device helpers shared by the index engines' join kernels: the float32 distance and the batch
// output (cuda/index_batches.hpp).
#include <cooperative_groups.h>

#include "core/exact_test.hpp"
#include "cuda/index_batches.hpp"

namespace simjoin::gpu {

// Sum of squared differences in float32, rounded as the CPU engines round (no fused multiply-add).
// Stops early once the partial sum passes `reject` (the exact test's bound, ExactBand::reject): the
// value returned is then above it too, and the pair is no pair.
__device__ inline float squared_distance(const float* p, const float* q, int d, float reject) {
  float sum = 0;
  for (int k = 0; k < d && sum <= reject; ++k) {
    const float diff = __fsub_rn(p[k], q[k]);
    sum = __fadd_rn(sum, __fmul_rn(diff, diff));
  }
  return sum;
}

// Appends the pair (i, j) to the batch: one atomic per group of threads of a warp that emit together.
// Pairs past the capacity are counted but not written (the batch is then re-run split).
__device__ inline void emit_pair(const BatchOutput& out, std::uint32_t i, std::uint32_t j) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group group = cg::coalesced_threads();
  unsigned long long slot = 0;
  if (group.thread_rank() == 0) slot = atomicAdd(out.counters, (unsigned long long)group.size());
  slot = group.shfl(slot, 0) + group.thread_rank();
  if (out.pairs && slot < out.capacity) out.pairs[slot] = Pair{i, j};
}

// Adds each thread's distance-test count to counters[1], one atomic per warp. Every thread of the
// warp must call it.
__device__ inline void add_compared(const BatchOutput& out, unsigned long long tests) {
  for (int offset = 16; offset > 0; offset /= 2) tests += __shfl_down_sync(0xffffffffu, tests, offset);
  if ((threadIdx.x & 31) == 0 && tests) atomicAdd(out.counters + 1, tests);
}

}  // namespace simjoin::gpu
