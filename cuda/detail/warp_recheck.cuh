#pragma once
// The exact re-check of a warp's tensor-core candidates (gpu_bruteforce.cu): each candidate's float32
// difference-form distance over the frame's rows, decided by the exact test. A lane alone walks a whole
// row per candidate while the warp's other lanes wait, unless they have candidates of their own: on a
// manifold in 960 dimensions, where a lane rarely has more than one, that walk was a quarter of the long
// rows' kernel's instructions, and the block's other warps waited for it at their next barrier. Where
// the warp's candidates are few against the most any lane holds, its 32 lanes sum each candidate
// together instead, every 32nd dimension each, and add their sums in a tree. The exact test's band
// (core/frame/join_frame.cpp) holds for a sum in any order, so either way decides each pair as the
// oracle does.
#include <cstddef>
#include <cstdint>

#include "core/base/pair_sink.hpp"
#include "core/numeric/exact_test.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/difference_tile.cuh"

namespace simjoin::gpu::recheck {

constexpr unsigned kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffu;

// The squared distance of rows p and q (`stride` floats each) summed by the whole warp: lane l takes
// dimensions l, l + 32, ..., then the lanes' sums are added pairwise by butterfly, so that every lane
// holds the same sum (each addition's two operands are the same in both lanes that make it).
__device__ inline float warp_squared_distance(const float* p, const float* q, unsigned stride) {
  float sum = 0;
  for (unsigned k = threadIdx.x % kWarp; k < stride; k += kWarp) sum = add_squared_difference(sum, p[k], q[k]);
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
    sum = __fadd_rn(sum, __shfl_xor_sync(kAllLanes, sum, offset));
  return sum;
}

// Whether the warp re-checks its `total` candidates together: alone, the lanes take as many rounds as the
// most any lane holds (`most`), each about `stride` steps; together, each candidate takes about stride / 32
// steps, plus the tree and its hand-over, counted as six.
__device__ inline bool together(unsigned total, unsigned most, unsigned stride) {
  return total * (stride / kWarp + 6) < most * stride;
}

// The bits of this lane's `undecided` that the exact test keeps, each lane re-checking its own: pair_of(bit)
// is a bit's pair (row of a, row of b), rows `stride` floats apart.
template <typename PairOf>
__device__ inline unsigned long long kept_alone(unsigned long long undecided, const float* a, const float* b,
                                                unsigned stride, const ExactPairTest& test, PairOf pair_of) {
  return tile::keep_bits(undecided, [&](int bit) {
    const Pair pair = pair_of(bit);
    return test(squared_distance(a + std::size_t(pair.i) * stride, b + std::size_t(pair.j) * stride, int(stride),
                                 test.band.reject),
                pair.i, pair.j);
  });
}

// The same, the warp's lanes re-checking each candidate together where together() says so. Every lane of
// the warp must call it. The choice and the shared loop take registers: the split operands' kernels at two
// blocks a multiprocessor, which have none to spare, ran 5 to 11 % slower with it (gpu_bruteforce.cu).
template <typename PairOf>
__device__ inline unsigned long long kept_bits(unsigned long long undecided, const float* a, const float* b,
                                               unsigned stride, const ExactPairTest& test, PairOf pair_of) {
  const unsigned count = unsigned(__popcll(undecided));
  const unsigned total = __reduce_add_sync(kAllLanes, count), most = __reduce_max_sync(kAllLanes, count);
  if (!together(total, most, stride)) return kept_alone(undecided, a, b, stride, test, pair_of);
  unsigned long long kept = 0;
  for (unsigned owners; (owners = __ballot_sync(kAllLanes, undecided != 0)) != 0;) {
    const unsigned owner = unsigned(__ffs(int(owners))) - 1;
    const int bit = undecided ? __ffsll((long long)undecided) - 1 : 0;
    const Pair own = pair_of(bit);
    const Pair pair{__shfl_sync(kAllLanes, own.i, int(owner)), __shfl_sync(kAllLanes, own.j, int(owner))};
    const float d2 = warp_squared_distance(a + std::size_t(pair.i) * stride, b + std::size_t(pair.j) * stride, stride);
    if (threadIdx.x % kWarp == owner) {
      if (test(d2, pair.i, pair.j)) kept |= 1ull << bit;
      undecided &= undecided - 1;
    }
  }
  return kept;
}

}  // namespace simjoin::gpu::recheck
