#pragma once
// Device helpers shared by the index engines' join kernels: the float32 distance test and the
// batch output (cuda/index_batches.hpp).
#include <cooperative_groups.h>

#include "cuda/index_batches.hpp"

namespace simjoin::gpu {

// Sum of squared differences in float32, rounded as the CPU engines round (no fused multiply-add),
// against eps^2. With eps = 0 the points must be equal in every coordinate: squares of tiny
// differences would underflow to 0. Stops early once the sum passes eps^2.
__device__ inline bool within_eps(const float* p, const float* q, int d, float eps2) {
  float sum = 0;
  for (int k = 0; k < d; ++k) {
    const float diff = __fsub_rn(p[k], q[k]);
    if (eps2 == 0.0f) {
      if (diff != 0.0f) return false;
      continue;
    }
    sum = __fadd_rn(sum, __fmul_rn(diff, diff));
    if (sum > eps2) return false;
  }
  return sum <= eps2;
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
