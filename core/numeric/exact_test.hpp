#pragma once
// The exact pair test every exact engine shares, on the CPU and (compiled by nvcc) on the GPU.
//
// The truth is the oracle's float64 computation on the file's own values: differences scaled by a
// power of two (exact, so the result equals the plain float64 sum wherever that neither overflows
// nor underflows), squared and summed in dimension order without fused multiply-add, compared with
// (eps * scale)^2. Engines compute in float32 in the join's frame (core/frame/join_frame.hpp); the frame
// gives two thresholds on their float32 squared distance D, proven there: D <= accept is a pair for
// the oracle too, D > reject is not one for the oracle either, and the few candidates in between are
// decided again by the oracle's own computation.
#include <cstddef>
#include <cstdint>

#include "core/numeric/host_device.hpp"

namespace simjoin {

SIMJOIN_HOST_DEVICE inline double oracle_squared_distance(const double* p, const double* q, std::size_t d,
                                                          double scale) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
#if defined(__CUDA_ARCH__)
    const double diff = __dmul_rn(__dsub_rn(p[k], q[k]), scale);
    sum = __dadd_rn(sum, __dmul_rn(diff, diff));
#else
    const double diff = (p[k] - q[k]) * scale;
    sum += diff * diff;
#endif
  }
  return sum;
}

struct ExactBand {
  float accept = -1;  // float32 squared distance <= accept: a pair (-1: none without a re-check)
  float reject = -1;  // float32 squared distance > reject: not a pair
  double scale = 1;   // the oracle's power of two, 2^-ilogb(eps) (2^1023 below 2^-1023 and for eps = 0)
  double eps2 = 0;    // (eps * scale)^2, what the oracle compares with

  SIMJOIN_HOST_DEVICE bool oracle_within(const double* p, const double* q, std::size_t d) const {
    return oracle_squared_distance(p, q, d, scale) <= eps2;
  }
  // True when the float32 squared distance alone decides.
  SIMJOIN_HOST_DEVICE bool decided(float d2) const { return d2 <= accept || !(d2 <= reject); }
};

// The exact test over two sets of the file's values (row-major, d per row): rows i of a and j of b.
struct ExactPairTest {
  ExactBand band;
  const double* a = nullptr;
  const double* b = nullptr;
  std::size_t d = 0;

  SIMJOIN_HOST_DEVICE bool operator()(float d2, std::uint32_t i, std::uint32_t j) const {
    if (d2 <= band.accept) return true;
    if (!(d2 <= band.reject)) return false;
    return band.oracle_within(a + std::size_t(i) * d, b + std::size_t(j) * d, d);
  }
};

}  // namespace simjoin
