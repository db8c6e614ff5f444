#pragma once
// The one float32 distance of every GPU kernel that tests pairs one at a time (the tiled kernels of
// difference_tile.cuh round the same way): the exact test (core/exact_test.hpp) proves its band on
// exactly this rounding, the CPU engines' float32 test.
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

}  // namespace simjoin::gpu
