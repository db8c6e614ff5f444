#pragma once
// Tensor-core matrix products in about float32 accuracy from FP16 operands: each (scaled) operand x
// is split into hi = fp16(x) and lo = fp16(x - hi), and a*b is taken as lo_a*hi_b + hi_a*lo_b +
// hi_a*hi_b, the small terms first so that they are not lost against the big one. The dropped
// lo*lo term and the rounding of lo are each below 2^-22 |a| |b| (plus 2^-25 per operand where lo
// is subnormal), against 2^-11 for plain FP16; FP16 products run at twice the TF32 rate.
#include <cuda_fp16.h>

#include <cstdint>

namespace simjoin::gpu::split_half {

struct Split {
  __half hi, lo;
};

__device__ inline Split split(float x) {
  const __half hi = __float2half_rn(x);
  return {hi, __float2half_rn(x - __half2float(hi))};  // x - hi is exact in float32
}

// d = a * b + c for one 16 x 8 x 16 tile (PTX fragment layouts: a is 16 x 16 row-major in four half2
// registers, b 16 x 8 column-major in two, c and d 16 x 8). With c apart from d, a first product
// starts from c where it lies, without copying it into d first.
__device__ inline void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                           const float (&c)[4]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

// d += a * b.
__device__ inline void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) { mma(d, a, b, d); }

}  // namespace simjoin::gpu::split_half
