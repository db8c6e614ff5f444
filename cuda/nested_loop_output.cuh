#pragma once
// Device side of the pair output shared by the nested-loop and k-means engines: pairs are appended
// to a bounded device buffer through one atomicAdd per warp. The counter always advances, also past
// the capacity, so the host sees an overflow and runs that work again in smaller pieces.
#include <cstdint>

#include "core/pair_sink.hpp"
#include "cuda/device_cancel.hpp"

namespace simjoin::gpu {

struct PairOutput {
  Pair* pairs = nullptr;  // null when only counting
  unsigned long long* count = nullptr;
  unsigned long long capacity = 0;
  CancelFlag cancel;  // a kernel may stop early once it is raised: its pairs are then discarded
};

// One candidate pair per lane. Every lane of the warp must call it (hit false where there is none).
__device__ inline void emit_warp(const PairOutput& out, bool hit, std::uint32_t i, std::uint32_t j) {
  const unsigned ballot = __ballot_sync(0xffffffffu, hit);
  if (ballot == 0) return;
  const unsigned lane = threadIdx.x & 31u;
  unsigned long long base = 0;
  if (lane == 0) base = atomicAdd(out.count, (unsigned long long)__popc(ballot));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (hit && out.pairs) {
    const unsigned long long pos = base + __popc(ballot & ((1u << lane) - 1u));
    if (pos < out.capacity) out.pairs[pos] = Pair{i, j};
  }
}

// Up to 64 pairs per lane, given as a bit mask; pair_of(bit) names the pair of a set bit. Every lane
// of the warp must call it.
template <typename PairOf>
__device__ inline void emit_mask_warp(const PairOutput& out, unsigned long long mask, PairOf pair_of) {
  const int mine = __popcll(mask);
  if (!__any_sync(0xffffffffu, mine != 0)) return;
  const unsigned lane = threadIdx.x & 31u;
  int inclusive = mine;
  for (int offset = 1; offset < 32; offset <<= 1) {
    const int value = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= unsigned(offset)) inclusive += value;
  }
  unsigned long long base = 0;
  if (lane == 31) base = atomicAdd(out.count, (unsigned long long)inclusive);
  base = __shfl_sync(0xffffffffu, base, 31);
  if (!out.pairs) return;
  unsigned long long pos = base + unsigned(inclusive - mine);
  while (mask) {
    const int bit = __ffsll((long long)mask) - 1;
    mask &= mask - 1;
    if (pos < out.capacity) out.pairs[pos] = pair_of(bit);
    ++pos;
  }
}

}  // namespace simjoin::gpu
