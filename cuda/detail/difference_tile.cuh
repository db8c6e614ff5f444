#pragma once
// The register-tiled distance kernel shared by gpu-bruteforce and gpu-kmeans: a block of 256 threads
// compares a tile of 128 query rows with a tile of 128 candidate rows; each thread owns 8 x 8 of the
// pairs and accumulates their squared distances in registers, one subtraction and one FMA per pair
// and dimension (an instruction fewer than the unfused rounding of squared_distance in
// core/numeric/numeric_rules.hpp; the exact test's band, core/frame/join_frame.cpp, holds for either). Coordinates
// are staged through shared memory dimension-major, up to kChunkDims dimensions at a time, so that any
// dimensionality works.
#include <cstddef>
#include <cstdint>

#include "core/base/pair_sink.hpp"
#include "core/numeric/exact_test.hpp"

namespace simjoin::gpu::tile {

constexpr unsigned kTile = 128;
constexpr unsigned kThreads = 256;
constexpr unsigned kChunkDims = 16;
constexpr unsigned kPerThread = 8;  // rows (and columns) per thread

struct Shared {
  float rows[kChunkDims][kTile];
  float cols[kChunkDims][kTile];
};

// Tile-local row (or column) of a thread's r-th register row: two groups of four, 64 apart, so that
// the 16-byte shared-memory reads of a warp are contiguous.
__device__ inline unsigned local_index(unsigned group, unsigned r) { return (r < 4 ? 0 : 64) + group * 4 + (r & 3); }
__device__ inline unsigned row_group() { return threadIdx.x / 16; }
__device__ inline unsigned col_group() { return threadIdx.x % 16; }

__device__ inline void stage(float (*target)[kTile], const float* points, unsigned count, unsigned stride, unsigned k0,
                             unsigned dims) {
  const unsigned vectors = dims / 4;
  for (unsigned v = threadIdx.x; v < kTile * vectors; v += kThreads) {
    const unsigned point = v / vectors, part = v % vectors;
    float4 x = make_float4(0, 0, 0, 0);
    if (point < count) x = *reinterpret_cast<const float4*>(points + std::size_t(point) * stride + k0 + 4 * part);
    target[4 * part + 0][point] = x.x;
    target[4 * part + 1][point] = x.y;
    target[4 * part + 2][point] = x.z;
    target[4 * part + 3][point] = x.w;
  }
}

// Squared distances of rows[0, row_count) x cols[0, col_count) (each `stride` floats apart, stride a
// multiple of 4) into acc[r][c]; rows and columns past the counts compare zeros. All threads of the
// block must call it; it begins with a barrier, so the shared memory may be reused item after item.
__device__ inline void distances(Shared& s, const float* rows, unsigned row_count, const float* cols,
                                 unsigned col_count, unsigned stride, float (&acc)[kPerThread][kPerThread]) {
#pragma unroll
  for (unsigned r = 0; r < kPerThread; ++r)
#pragma unroll
    for (unsigned c = 0; c < kPerThread; ++c) acc[r][c] = 0;
  const unsigned rg = row_group(), cg = col_group();
  for (unsigned k0 = 0; k0 < stride; k0 += kChunkDims) {
    const unsigned dims = stride - k0 < kChunkDims ? stride - k0 : kChunkDims;
    __syncthreads();
    stage(s.rows, rows, row_count, stride, k0, dims);
    stage(s.cols, cols, col_count, stride, k0, dims);
    __syncthreads();
    for (unsigned k = 0; k < dims; k += 4) {
#pragma unroll
      for (unsigned kk = 0; kk < 4; ++kk) {
        const float4 a0 = *reinterpret_cast<const float4*>(&s.rows[k + kk][rg * 4]);
        const float4 a1 = *reinterpret_cast<const float4*>(&s.rows[k + kk][64 + rg * 4]);
        const float4 b0 = *reinterpret_cast<const float4*>(&s.cols[k + kk][cg * 4]);
        const float4 b1 = *reinterpret_cast<const float4*>(&s.cols[k + kk][64 + cg * 4]);
        const float a[kPerThread] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
        const float b[kPerThread] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
        for (unsigned r = 0; r < kPerThread; ++r)
#pragma unroll
          for (unsigned c = 0; c < kPerThread; ++c) {
            const float diff = a[r] - b[c];
            acc[r][c] = fmaf(diff, diff, acc[r][c]);
          }
      }
    }
  }
}

// Bit r*8+c set where acc[r][c] <= bound. Hits are rare: one min per pair decides whether the mask
// needs building at all, which is cheaper than a compare and a 64-bit OR per pair.
__device__ inline unsigned long long within(const float (&acc)[kPerThread][kPerThread], float bound) {
  float smallest = acc[0][0];
#pragma unroll
  for (unsigned r = 0; r < kPerThread; ++r)
#pragma unroll
    for (unsigned c = 0; c < kPerThread; ++c) smallest = fminf(smallest, acc[r][c]);
  unsigned long long mask = 0;
  if (!(smallest <= bound)) return mask;
#pragma unroll
  for (unsigned r = 0; r < kPerThread; ++r)
#pragma unroll
    for (unsigned c = 0; c < kPerThread; ++c)
      if (acc[r][c] <= bound) mask |= 1ull << (r * kPerThread + c);
  return mask;
}

// Tile-local row and column of bit r*8+c of a mask.
__device__ inline unsigned bit_row(int bit) { return local_index(row_group(), unsigned(bit) / kPerThread); }
__device__ inline unsigned bit_col(int bit) { return local_index(col_group(), unsigned(bit) % kPerThread); }

// Clears the bits that keep(bit) rejects; only set bits are looked at, so the cost is paid for
// candidates alone.
template <typename KeepBit>
__device__ inline unsigned long long keep_bits(unsigned long long mask, KeepBit keep) {
  unsigned long long kept = 0;
  while (mask) {
    const int bit = __ffsll((long long)mask) - 1;
    mask &= mask - 1;
    if (keep(bit)) kept |= 1ull << bit;
  }
  return kept;
}

// The bits of `candidates` (within test.band.reject, and real pairs of rows) that the exact test
// accepts: those within test.band.accept at once, the few in between as the oracle decides on
// pair_of(bit) = (row of test.a, row of test.b). Bits are looked up by value, not by register index.
template <typename PairOf>
__device__ inline unsigned long long exact_bits(unsigned long long candidates,
                                                const float (&acc)[kPerThread][kPerThread], const ExactPairTest& test,
                                                PairOf pair_of) {
  const unsigned long long undecided = candidates & ~within(acc, test.band.accept);
  if (!undecided) return candidates;
  return (candidates & ~undecided) | keep_bits(undecided, [&](int bit) {
           const Pair pair = pair_of(bit);
           return test.band.oracle_within(test.a + std::size_t(pair.i) * test.d, test.b + std::size_t(pair.j) * test.d,
                                          test.d);
         });
}

// keep_bits with keep(row, col) given the tile-local row and column of each bit.
template <typename Keep>
__device__ inline unsigned long long filter(unsigned long long mask, Keep keep) {
  return keep_bits(mask, [&](int bit) { return keep(bit_row(bit), bit_col(bit)); });
}

// Item `item` of the triangle {(r, c): r <= c < tiles}, numbered row by row.
__device__ inline void triangle_item(std::uint64_t item, std::uint64_t tiles, std::uint32_t& r, std::uint32_t& c) {
  const double t = double(2 * tiles + 1);
  std::uint64_t row = std::uint64_t((t - sqrt(t * t - 8.0 * double(item))) / 2);
  const auto start = [&](std::uint64_t x) { return x * tiles - x * (x - 1) / 2; };
  while (row > 0 && start(row) > item) --row;
  while (start(row + 1) <= item) ++row;
  r = std::uint32_t(row);
  c = std::uint32_t(row + (item - start(row)));
}

}  // namespace simjoin::gpu::tile
