#pragma once
// Device side of the one pair output of every GPU engine (host side: pair_batches.hpp). A kernel
// appends its pairs to a bounded device buffer with one atomic per group of lanes that emit together.
// The pair counter always advances, also past the capacity, so the host sees an overflow and runs that
// work again in smaller pieces.
#include <cooperative_groups.h>

#include <cstdint>

#include "core/base/pair_sink.hpp"
#include "cuda/detail/device_cancel.hpp"

namespace simjoin::gpu {

struct PairOutput {
  Pair* pairs = nullptr;  // null when only counting
  unsigned long long capacity = 0;
  // counters[0]: pairs found; counters[1]: distance tests, for kernels that count them (add_compared).
  unsigned long long* counters = nullptr;
  CancelFlag cancel;  // a kernel may stop early once it is raised: its pairs are then discarded
};

// Appends the pair (i, j). Lanes may call it alone or together (one atomic for those that do).
__device__ inline void emit_pair(const PairOutput& out, std::uint32_t i, std::uint32_t j) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group group = cg::coalesced_threads();
  unsigned long long slot = 0;
  if (group.thread_rank() == 0) slot = atomicAdd(out.counters, (unsigned long long)group.size());
  slot = group.shfl(slot, 0) + group.thread_rank();
  if (out.pairs && slot < out.capacity) out.pairs[slot] = Pair{i, j};
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
  if (lane == 31) base = atomicAdd(out.counters, (unsigned long long)inclusive);
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

// Adds each thread's distance-test count to counters[1], one atomic per warp. Every thread of the
// warp must call it.
__device__ inline void add_compared(const PairOutput& out, unsigned long long tests) {
  for (int offset = 16; offset > 0; offset /= 2) tests += __shfl_down_sync(0xffffffffu, tests, offset);
  if ((threadIdx.x & 31) == 0 && tests) atomicAdd(out.counters + 1, tests);
}

}  // namespace simjoin::gpu
