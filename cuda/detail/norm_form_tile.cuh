#pragma once
// The tensor-core distance tile of gpu-bruteforce: a block of 256 threads (8 warps, 2 x 4) takes 128
// query rows x 128 candidate rows of translated, scaled points (CenteredPoints, scale s) and computes,
// per pair,
//   s^2 (p_r . q_c) - keep s^2 |q_c|^2 / 2,   compared with   s^2 (keep |p_r|^2 - bound) / 2,
// which is the norm form |p - q|^2 = |p|^2 + |q|^2 - 2 p.q <= R with both norms scaled by
// keep = 1 - f, halved and scaled by s^2 (powers of two: exact). The products run on tensor cores
// from split FP16 operands (split_half_mma.cuh), accumulated onto the column terms.
//
// R is the exact test's reject bound (core/numeric/exact_test.hpp): no pair of the oracle has a float32
// difference-form distance above it. Why no candidate within R is missed: with u = 2^-24 and stride padded dimensions,
// the computed value differs from the exact one by at most (13 stride + 16) u (|p|^2 + |q|^2), plus an absolute part:
// the float32 norms (stride u each), the split products (3 * 2^-22 relative), tensor-core
// accumulation truncating up to 17 ulps of its largest term in each of the 3 stride / 16 steps
// (terms below 2 (|p|^2 + |q|^2)), and the translation's rounding (2 u); the absolute part, from FP16
// subnormals (2^-25 per scaled coordinate, coordinates below 2^14), is below stride 2^-10 / s^2.
// f = (stride + 2) * 2^-19 exceeds the relative part with a margin of about 2, so subtracting
// f (|p|^2 + |q|^2) keeps every pair within R on the candidate side; `bound` adds the absolute part
// and the float32 difference form's own (d + 2) u relative error, with margins, to R. Candidates are
// then decided by the exact test on the float32 difference form of the frame's coordinates, so the
// result does not depend on this bound beyond its being safe.
//
// Plain FP16 operands (Operands::Plain: one product a term instead of three, at three times the
// rate): rounding a scaled coordinate to FP16 is relative 2^-11 (the products stay exact in float32),
// so 2 p.q moves by at most 2 (2 2^-11 + 2^-22) sum |p_k q_k| <= (2^-10 + 2^-22)(|p|^2 + |q|^2); a
// subnormal hi (below 2^-14) is off by 2^-25 at most, as the split's lo is, inside the absolute part.
// bound_factor(stride, Operands::Plain) adds that term whole to f, whose margin still covers the rest.
//
// The accept side, the mirror: the exact test's accept bound A is proven (core/frame/join_frame.cpp)
// for the exact squared distance S of the frame's float32 coordinates: S <= A is a pair for the
// oracle. The computed norm form N differs from S by at most f (|p|^2 + |q|^2) plus the absolute
// part, so N + f2 (|p|^2 + |q|^2) <= narrowed_accept(A) proves S <= A, with f2 = f + 2^-20 covering
// the float32 rounding of the few operations of the test itself (each a few u of |p|^2 + |q|^2).
// Such a pair is emitted without the re-check.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda/detail/centered_points.hpp"
#include "cuda/detail/split_half_mma.cuh"
#include "cuda/detail/tensor_tile_layout.hpp"

namespace simjoin::gpu::norm_tile {

constexpr unsigned kThreads = 256;

// Factor f of the error bound above, for rows of `stride` dimensions.
inline float bound_factor(unsigned stride) { return float(stride + 2) * 0x1p-19f; }

inline float bound_factor(unsigned stride, Operands operands) {
  return bound_factor(stride) + (operands == Operands::Plain ? 0x1p-10f + 0x1p-21f : 0.0f);
}

// The accept side's factor f2 (above).
inline float accept_factor(float f) { return f + 0x1p-20f; }

// The reject bound widened by the difference form's own rounding and the bound's absolute part, for
// points scaled by `scale`.
// The relative part, (dims + 2) 2^-22, is slack: a pair the oracle accepts has exact float32-frame
// distance s <= search_radius, and reject >= search_radius^2 (1 + g) with g = (d + 2) 2^-24 / (1 -
// (d + 2) 2^-24) (core/frame/join_frame.cpp), so reject already exceeds s^2 by the difference form's
// relative error; the norm form estimates s^2 (its own error is f's and the absolute part's), not the
// difference form's D. Kept, not tightened: it costs a relative 2^-22 (d + 2) of candidates, and
// whether the absolute part alone covers every input is not proven (the FP16 subnormal error it
// bounds is, in file units, about 2^-38 of the extent per coordinate, far below the frame's E, but
// only for pairs whose own frame rounding leaves room below E). No input is known that loses a pair
// with both parts dropped (mutant norm-form-widening-dropped survives the contract on seeds 1-5).
inline float widened_bound(float reject, std::size_t dims, unsigned stride, float scale) {
  return reject * (1 + float(dims + 2) * 0x1p-22f) + 2 * float(stride) * 0x1p-10f / (scale * scale);
}

// The exact test's accept bound narrowed by the absolute part and, as widened_bound widens the reject
// bound, a relative (dims + 2) 2^-22, computed in double and rounded down; -1 where nothing is left.
inline float narrowed_accept(float accept, std::size_t dims, unsigned stride, float scale) {
  if (!(accept > 0)) return -1;
  const double narrowed = double(accept) * (1 - double(dims + 2) * 0x1p-22) -
                          2 * double(stride) * 0x1p-10 / (double(scale) * double(scale));
  float rounded = float(narrowed);
  if (double(rounded) > narrowed) rounded = std::nextafter(rounded, 0.0f);
  return narrowed > 0 ? rounded : -1;
}

__device__ inline void copy_async(void* target, const void* source, unsigned bytes, bool valid) {
  const unsigned address = unsigned(__cvta_generic_to_shared(target));
  if (bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(address), "l"(source), "r"(valid ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(address), "l"(source), "r"(valid ? 4 : 0));
}
__device__ inline void commit_copies() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until none of this thread's copy groups is in flight.
__device__ inline void wait_copies() { asm volatile("cp.async.wait_group 0;\n" ::); }

// Which threads copy how many rows of a tile: `threads` of them (this one number `thread`), `rows` rows.
struct Copiers {
  unsigned thread, threads, rows;
};

// The whole block copies the whole tile.
__device__ inline Copiers whole_block() { return {threadIdx.x, kThreads, kTile}; }

// Starts copying words [offset, offset + length) (length a multiple of 4) of rows [first, first + who.rows)
// of `points`, packed rows of `packed` words (zeros past `count`), into `target`, rows `pitch` words apart.
// Copier i copies the 16-byte vectors i, i + who.threads, ...: its row, word and both addresses advance
// by the same steps each time, so that a copy costs a few additions (a division and the addresses
// worked out afresh for each copy made this loop a quarter of the whole-row kernel's instructions at
// 128 dimensions).
__device__ inline void stage_words_async(std::uint32_t* target, unsigned pitch, const std::uint32_t* points,
                                         unsigned packed, unsigned offset, unsigned length, std::uint32_t count,
                                         std::uint32_t first, Copiers who = whole_block()) {
  const unsigned vectors = length / 4;
  const unsigned row_step = who.threads / vectors, word_step = who.threads % vectors * 4;
  const unsigned real_rows = count > first ? min(count - first, who.rows) : 0;
  unsigned point = who.thread / vectors, word = who.thread % vectors * 4;
  std::uint32_t* to = target + point * pitch + word;
  const std::uint32_t* from = points + (std::size_t(first) + point) * packed + offset + word;
  while (point < who.rows) {
    const bool real = point < real_rows;
    copy_async(to, real ? from : points, 16, real);
    point += row_step, word += word_step;
    to += row_step * pitch + word_step, from += std::size_t(row_step) * packed + word_step;
    if (word >= length) word -= length, ++point, to += pitch - length, from += packed - length;
  }
}

// Starts copying the norms of rows [first, first + who.rows) (zeros past `count`) into `target`.
__device__ inline void stage_norms_async(float* target, const float* norms, std::uint32_t count, std::uint32_t first,
                                         Copiers who = whole_block()) {
  for (unsigned i = who.thread; i < who.rows; i += who.threads) {
    const bool valid = first + i < count;
    copy_async(target + i, valid ? norms + first + i : norms, 4, valid);
  }
}

// Starts copying rows [first, first + who.rows) of `points` (zeros past `count`) and their norms into
// shared memory, as one copy group.
template <Operands kOperands>
__device__ inline void stage_async(std::uint32_t* target, float* target_norms, const std::uint32_t* points,
                                   const float* norms, std::uint32_t count, std::uint32_t first, unsigned stride,
                                   Copiers who = whole_block()) {
  const unsigned packed = packed_words(stride, kOperands);
  stage_words_async(target, row_words(stride, kOperands), points, packed, 0, packed, count, first, who);
  stage_norms_async(target_norms, norms, count, first, who);
  commit_copies();
}

__device__ inline unsigned lane() { return threadIdx.x % 32; }
__device__ inline unsigned warp_row() { return threadIdx.x / 32 / 4 * 64; }
__device__ inline unsigned warp_col() { return threadIdx.x / 32 % 4 * 32; }

// The two warps of a column slab (warp_col's 32 columns, read by warps w and w + 4, which share a
// scheduler): they copy their slab of each column tile themselves and wait for each other alone, on
// named barrier 1 + w % 4, so that the block's four slabs go on without waiting for one another.
constexpr unsigned kSlabColumns = 32, kSlabThreads = 64;
__device__ inline Copiers slab_copiers() { return {threadIdx.x / 128 * 32 + lane(), kSlabThreads, kSlabColumns}; }
__device__ inline void sync_slab() {
  asm volatile("bar.sync %0, %1;\n" ::"r"(1 + threadIdx.x / 32 % 4), "r"(kSlabThreads) : "memory");
}

// Tile-local row and column of bit (mi * 2 + h) * 8 + ni * 2 + e of a candidate mask: the thread's
// rows are warp_row + mi * 16 + g + 8 h and its columns warp_col + ni * 8 + 2 t + e (the mma
// accumulator layout, g = lane / 4, t = lane % 4).
__device__ inline unsigned bit_row(int bit) {
  const unsigned row_slot = unsigned(bit) / 8;
  return warp_row() + row_slot / 2 * 16 + lane() / 4 + 8 * (row_slot & 1);
}
__device__ inline unsigned bit_col(int bit) {
  const unsigned col_slot = unsigned(bit) % 8;
  return warp_col() + col_slot / 2 * 8 + 2 * (lane() % 4) + (col_slot & 1);
}

// One staged tile of packed points: kTile rows of row_words(stride, operands) words, their norms, and
// how many rows are real.
struct StagedTile {
  const std::uint32_t* points;
  const float* norms;
  unsigned count;
};

// The thresholds of a tile pass, all times s^2: keep = 1 - f on the candidate side; bound, the
// widened reject bound; on the accept side (accept_row = 1 + f2, accept_col = (f + f2) / 2, accept =
// the narrowed accept bound, negative where none).
struct TileBounds {
  float keep;
  float bound;
  float accept_row;
  float accept_col;
  float accept;
};

// This thread's candidates and, among them, the pairs proven without a re-check (bits as in bit_row
// / bit_col).
struct TileMasks {
  unsigned long long candidates = 0;
  unsigned long long accepted = 0;
};

using Accumulators = float[4][4][4];

// The column terms -keep s^2 |q_c|^2 / 2 that this thread's accumulators start from, as one mma's
// accumulators hold them (columns ni * 8 + 2 t + e, rows g and g + 8 alike: [ni][e] and [ni][2 + e]);
// columns past the end start at -infinity (never candidates).
using ColumnStarts = float[4][4];

__device__ inline void column_starts(const StagedTile& cols, float keep, ColumnStarts& starts) {
  const unsigned t = lane() % 4;
#pragma unroll
  for (unsigned ni = 0; ni < 4; ++ni)
#pragma unroll
    for (unsigned e = 0; e < 2; ++e) {
      const unsigned c = warp_col() + ni * 8 + 2 * t + e;
      starts[ni][e] = starts[ni][2 + e] = c < cols.count ? -0.5f * keep * cols.norms[c] : -INFINITY;
    }
}

// acc = the column terms, for products added onto them (the long rows' form, whose accumulators
// outlive a chunk's products).
__device__ inline void start_accumulators(const StagedTile& cols, float keep, Accumulators& acc) {
  ColumnStarts starts;
  column_starts(cols, keep, starts);
#pragma unroll
  for (unsigned mi = 0; mi < 4; ++mi)
#pragma unroll
    for (unsigned ni = 0; ni < 4; ++ni)
#pragma unroll
      for (unsigned v = 0; v < 4; ++v) acc[mi][ni][v] = starts[ni][v];
}

// Runs step(k, from_starts) for k = 0, 16, ... below `dims` (a multiple of 16, at least 16): the first
// with from_starts true where `starts` is given, so that its products start from the column terms (and
// no accumulator is set apart from them), else every step adds onto the accumulators.
template <typename Step>
__device__ inline void for_each_step(unsigned dims, const ColumnStarts* starts, Step step) {
  unsigned k = 0;
  if (starts) step(0u, std::true_type{}), k = 16;
  for (; k < dims; k += 16) step(k, std::false_type{});
}

// acc[mi][ni] = a * b + the column terms (from_starts), or acc[mi][ni] += a * b.
template <typename FromStarts>
__device__ inline void product(Accumulators& acc, unsigned mi, unsigned ni, const std::uint32_t (&a)[4],
                               const std::uint32_t (&b)[2], const ColumnStarts* starts, FromStarts) {
  if constexpr (FromStarts::value)
    split_half::mma(acc[mi][ni], a, b, (*starts)[ni]);
  else
    split_half::mma(acc[mi][ni], a, b);
}

// Loads four 8 x 8 matrices of 16-bit values from shared memory, lane l giving the address of row l % 8
// of matrix l / 8 (16 bytes), lane (g, t) receiving word t of row g of each matrix: the fragments of
// an mma straight into the registers it reads.
__device__ inline void load_matrices(unsigned address, std::uint32_t& m0, std::uint32_t& m1, std::uint32_t& m2,
                                     std::uint32_t& m3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(m0), "=r"(m1), "=r"(m2), "=r"(m3)
               : "r"(address));
}

// acc (+)= s^2 (p_r . q_c) over the first `dims` (a multiple of 16) of the staged plain operands, rows of
// the row tile `row_pitch` words apart and of the column tile `col_pitch`, starting from `starts` where given. A
// 16-dimension step's eight words of a row are read by ldmatrix as two 16-byte halves: lane (g, t) puts word t where
// the mma expects dimensions (2t, 2t+1) and word t + 4 where it expects (2t+8, 2t+9). The words hold other dimensions
// of the group (the packing's order), but for rows and columns alike, so every product pairs one dimension of both
// points and each mma sums the same 16 dimensions: the band's proof, which bounds each step's sum in any order, holds
// unchanged.
__device__ inline void accumulate_plain(const StagedTile& rows, const StagedTile& cols, unsigned row_pitch,
                                        unsigned col_pitch, unsigned dims, const ColumnStarts* starts,
                                        Accumulators& acc) {
  const unsigned l = lane();
  const auto address = [](const std::uint32_t* word) { return unsigned(__cvta_generic_to_shared(word)); };
  // Row fragments of mi: matrices (rows 0-7, half 0), (rows 8-15, half 0), (rows 0-7, half 1), (rows 8-15,
  // half 1). Column fragments of ni = 2 p, 2 p + 1: (ni's columns, half 0), (half 1), then ni + 1's.
  unsigned row_address[4], col_address[2];
#pragma unroll
  for (unsigned mi = 0; mi < 4; ++mi)
    row_address[mi] = address(rows.points + (warp_row() + mi * 16 + l % 16) * row_pitch + l / 16 * 4);
#pragma unroll
  for (unsigned p = 0; p < 2; ++p)
    col_address[p] = address(cols.points + (warp_col() + (2 * p + l / 16) * 8 + l % 8) * col_pitch + l / 8 % 2 * 4);
  for_each_step(dims, starts, [&](unsigned k, auto from_starts) {
    const unsigned step = k * 2;  // bytes of the k / 2 words before this step
    std::uint32_t b[4][2];
#pragma unroll
    for (unsigned p = 0; p < 2; ++p)
      load_matrices(col_address[p] + step, b[2 * p][0], b[2 * p][1], b[2 * p + 1][0], b[2 * p + 1][1]);
#pragma unroll
    for (unsigned mi = 0; mi < 4; ++mi) {
      std::uint32_t a[4];
      load_matrices(row_address[mi] + step, a[0], a[1], a[2], a[3]);
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni) product(acc, mi, ni, a, b[ni], starts, from_starts);
    }
  });
}

// The same from split operands: three products a term, the small ones first.
__device__ inline void accumulate_split(const StagedTile& rows, const StagedTile& cols, unsigned row_pitch,
                                        unsigned col_pitch, unsigned dims, const ColumnStarts* starts,
                                        Accumulators& acc) {
  const unsigned g = lane() / 4, t = lane() % 4;
  for_each_step(dims, starts, [&](unsigned k, auto from_starts) {
    // This lane's words of row (or column) x in this step: hi (2t, 2t+1), hi (2t+8, 2t+9), lo, lo.
    const auto load = [&](const std::uint32_t* tile, unsigned words, unsigned x) {
      return *reinterpret_cast<const uint4*>(tile + x * words + k + 4 * t);
    };
    std::uint32_t b_hi[4][2], b_lo[4][2];
#pragma unroll
    for (unsigned ni = 0; ni < 4; ++ni) {
      const uint4 v = load(cols.points, col_pitch, warp_col() + ni * 8 + g);
      b_hi[ni][0] = v.x, b_hi[ni][1] = v.y, b_lo[ni][0] = v.z, b_lo[ni][1] = v.w;
    }
#pragma unroll
    for (unsigned mi = 0; mi < 4; ++mi) {
      const unsigned x = warp_row() + mi * 16 + g;
      // Fragment order: (g, 2t..), (g + 8, 2t..), (g, 2t+8..), (g + 8, 2t+8..).
      const uint4 upper = load(rows.points, row_pitch, x), lower = load(rows.points, row_pitch, x + 8);
      const std::uint32_t a_hi[4] = {upper.x, lower.x, upper.y, lower.y};
      const std::uint32_t a_lo[4] = {upper.z, lower.z, upper.w, lower.w};
      // Term by term across the columns, so that consecutive products are independent.
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni) product(acc, mi, ni, a_lo, b_hi[ni], starts, from_starts);
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni) split_half::mma(acc[mi][ni], a_hi, b_lo[ni]);
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni) split_half::mma(acc[mi][ni], a_hi, b_hi[ni]);
    }
  });
}

// acc (+)= s^2 (p_r . q_c) over the first `dims` (a multiple of 16, at least 16) of the staged
// dimensions (rows of the row and column tiles row_pitch and col_pitch words apart), products from split or plain FP16
// operands; with `starts`, the accumulators are set to the column terms plus the products, else the products are added
// onto them.
template <Operands kOperands>
__device__ inline void accumulate_dims(const StagedTile& rows, const StagedTile& cols, unsigned row_pitch,
                                       unsigned col_pitch, unsigned dims, const ColumnStarts* starts,
                                       Accumulators& acc) {
  if constexpr (kOperands == Operands::Plain)
    accumulate_plain(rows, cols, row_pitch, col_pitch, dims, starts, acc);
  else
    accumulate_split(rows, cols, row_pitch, col_pitch, dims, starts, acc);
}

// The candidate and accepted masks of this thread's 8 x 8 pairs of rows x cols from their accumulated
// acc; without kAccept none is accepted (the accept side's registers would spill where they are scarce).
template <bool kAccept>
__device__ inline TileMasks masks_of(const Accumulators& acc, const StagedTile& rows, const StagedTile& cols,
                                     const TileBounds& bounds) {
  const unsigned g = lane() / 4, t = lane() % 4;
  // One maximum per row decides whether the row's bits need building at all (hits are rare).
  TileMasks masks;
#pragma unroll
  for (unsigned mi = 0; mi < 4; ++mi)
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
      const unsigned r = warp_row() + mi * 16 + g + 8 * h;
      const float limit = r < rows.count ? 0.5f * (bounds.keep * rows.norms[r] - bounds.bound) : INFINITY;
      float largest = acc[mi][0][2 * h];
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni) largest = fmaxf(largest, fmaxf(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]));
      if (!(largest >= limit)) continue;
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni)
#pragma unroll
        for (unsigned e = 0; e < 2; ++e)
          if (acc[mi][ni][2 * h + e] >= limit) masks.candidates |= 1ull << ((mi * 2 + h) * 8 + ni * 2 + e);
      if (!kAccept || !(bounds.accept > 0)) continue;
      // The largest of this thread's column norms stands in for each column's own (a slightly
      // stricter test, and no column terms held in registers beside the accumulators).
      float col_norm = 0;
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni)
        col_norm = fmaxf(col_norm,
                         fmaxf(cols.norms[warp_col() + ni * 8 + 2 * t], cols.norms[warp_col() + ni * 8 + 2 * t + 1]));
      const float row_accept =
          0.5f * (bounds.accept_row * rows.norms[r] - bounds.accept) + bounds.accept_col * col_norm;
#pragma unroll
      for (unsigned ni = 0; ni < 4; ++ni)
#pragma unroll
        for (unsigned e = 0; e < 2; ++e)
          if (acc[mi][ni][2 * h + e] >= row_accept) masks.accepted |= 1ull << ((mi * 2 + h) * 8 + ni * 2 + e);
    }
  masks.accepted &= masks.candidates;
  return masks;
}

}  // namespace simjoin::gpu::norm_tile
