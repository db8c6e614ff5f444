#include "cuda/engines/gpu_bruteforce.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/engines/component_filter.hpp"
#include "core/numeric/lifted_bound.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/bulk_copy.cuh"
#include "cuda/detail/candidate_share.hpp"
#include "cuda/detail/centered_points.hpp"
#include "cuda/detail/chunk_major.hpp"
#include "cuda/detail/difference_tile.cuh"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/lifted_points.hpp"
#include "cuda/detail/norm_form_tile.cuh"
#include "cuda/detail/pair_batches.hpp"
#include "cuda/detail/tile_order.hpp"
#include "cuda/detail/warp_recheck.cuh"

namespace simjoin::gpu {

namespace {
constexpr int kBlocksPerMultiprocessor = 2;
constexpr unsigned kTile = 128, kThreads = 256;
static_assert(tile::kTile == kTile && norm_tile::kTile == kTile && tile::kThreads == kThreads &&
              norm_tile::kThreads == kThreads);
// The tensor-core form pays off from 5 dimensions (rows of 8 floats on CUDA cores cost 16
// instructions a pair). Its rounding band makes every
// pair within eps^2 plus the band a candidate, re-checked one at a time: a band up to eps^2 / 8 is
// taken at once; one up to eps^2 where a sample finds at most 1/128 of the pairs within eps^2 plus
// twice the band (a re-check costs about as much as a hundred tensor-core tests of split operands).
// Plain operands' tests cost a third of split ones', so their re-checks weigh more: a sample may let
// through at most 1/512 for them.
constexpr float kBandTakenAtOnce = 1.0f / 8;
constexpr float kBandLimit = 1;
constexpr double kMaxCandidateShare = 1.0 / 128;
constexpr double kMaxPlainCandidateShare = 1.0 / 512;
constexpr std::size_t kMaxSharedBytes = 227 * 1024;

// The tile pair (ta, tb) of a work item: the upper triangle of tiles row by row for a self-join,
// all of tiles_a x tiles_b otherwise.
__device__ inline TilePair tile_pair(std::uint64_t item, bool self, std::uint64_t tiles_a, std::uint64_t tiles_b) {
  TilePair pair;
  if (self)
    tile::triangle_item(item, tiles_a, pair.ta, pair.tb);
  else
    pair = {std::uint32_t(item / tiles_b), std::uint32_t(item % tiles_b)};
  return pair;
}

// This block's contiguous run [begin, end) of the work items [first, last).
struct ItemRun {
  std::uint64_t begin, end;
};

__device__ inline ItemRun block_items(std::uint64_t first, std::uint64_t last) {
  const std::uint64_t per_block = (last - first + gridDim.x - 1) / gridDim.x;
  const std::uint64_t begin = first + blockIdx.x * per_block;
  return {begin, min(last, begin + per_block)};
}

// The pair of the work item after `pair`'s.
__device__ inline TilePair next_tile_pair(TilePair pair, bool self, std::uint64_t tiles_b) {
  if (pair.tb + 1 < tiles_b) return {pair.ta, pair.tb + 1};
  return {pair.ta + 1, self ? pair.ta + 1 : 0};
}

// Hands a thread's hits of tile pair `pair` to the output; a self-join's diagonal tiles keep only
// row < column. Every lane of the warp must call it.
template <typename RowOf, typename ColOf>
__device__ inline void emit_tile(const PairOutput& out, unsigned long long mask, TilePair pair, bool self, RowOf row_of,
                                 ColOf col_of) {
  if (mask && self && pair.ta == pair.tb)
    mask = tile::keep_bits(mask, [&](int bit) { return row_of(bit) < col_of(bit); });
  const std::uint32_t row0 = pair.ta * kTile, col0 = pair.tb * kTile;
  emit_mask_warp(out, mask, [&](int bit) { return Pair{row0 + row_of(bit), col0 + col_of(bit)}; });
}

// Float32 difference form on CUDA cores.
__global__ void __launch_bounds__(kThreads, kBlocksPerMultiprocessor)
    difference_kernel(const float* a, std::uint32_t na, const float* b, std::uint32_t nb, unsigned stride,
                      ExactPairTest test, bool self, std::uint64_t first, std::uint64_t last, PairOutput out) {
  __shared__ tile::Shared shared;
  const std::uint64_t tiles_a = (na + kTile - 1) / kTile, tiles_b = (nb + kTile - 1) / kTile;
  for (std::uint64_t item = first + blockIdx.x; item < last; item += gridDim.x) {
    const TilePair pair = tile_pair(item, self, tiles_a, tiles_b);
    const std::uint32_t row0 = pair.ta * kTile, col0 = pair.tb * kTile;
    const unsigned rows = min(kTile, na - row0), cols = min(kTile, nb - col0);
    float acc[tile::kPerThread][tile::kPerThread];
    tile::distances(shared, a + std::size_t(row0) * stride, rows, b + std::size_t(col0) * stride, cols, stride, acc);
    unsigned long long mask = tile::within(acc, test.band.reject);
    if (mask) mask = tile::filter(mask, [&](unsigned r, unsigned c) { return r < rows && c < cols; });
    if (mask)
      mask = tile::exact_bits(mask, acc, test, [&](int bit) {
        return Pair{row0 + tile::bit_row(bit), col0 + tile::bit_col(bit)};
      });
    emit_tile(
        out, mask, pair, self, [](int bit) { return tile::bit_row(bit); }, [](int bit) { return tile::bit_col(bit); });
  }
}

struct TensorOperands {
  const std::uint32_t* rows;  // CenteredPoints::words, packed_words(stride) words a row (chunk_major's layout
                              // in the long rows' form)
  const float* row_norms;
  std::uint32_t row_count;
  const std::uint32_t* cols;
  const float* col_norms;
  std::uint32_t col_count;
  unsigned stride;
  unsigned chunk;  // dimensions staged at a time (of column tiles streamed, or of both tiles); stride otherwise
  norm_tile::TileBounds bounds;
};

// Emits the pairs of tile pair `pair` that the accept side proved, and the other candidates that the
// exact test on the difference form of the frame's rows (a, b, exact_stride) keeps, re-checked by lanes
// together (kTogether, warp_recheck.cuh) or alone. Every lane of the warp must call it.
template <bool kTogether>
__device__ inline void emit_candidates(const norm_tile::TileMasks& masks, TilePair pair, const float* a, const float* b,
                                       unsigned exact_stride, const ExactPairTest& test, bool self,
                                       const PairOutput& out) {
  const std::uint32_t row0 = pair.ta * kTile, col0 = pair.tb * kTile;
  const auto pair_of = [&](int bit) { return Pair{row0 + norm_tile::bit_row(bit), col0 + norm_tile::bit_col(bit)}; };
  const unsigned long long undecided = masks.candidates & ~masks.accepted;
  unsigned long long mask = masks.accepted;
  if constexpr (kTogether)
    mask |= recheck::kept_bits(undecided, a, b, exact_stride, test, pair_of);
  else if (undecided)
    mask |= recheck::kept_alone(undecided, a, b, exact_stride, test, pair_of);
  emit_tile(
      out, mask, pair, self, [](int bit) { return norm_tile::bit_row(bit); },
      [](int bit) { return norm_tile::bit_col(bit); });
}

// Shared memory of tensor_kernel: a row tile of whole rows (row_pitch words a row), two stages of column
// tiles of `chunk` dimensions (col_pitch words a row), the row norms and two sets of column norms.
struct RowTileStages {
  std::uint32_t* rows;
  std::uint32_t* col_words;
  float* row_norms;
  unsigned row_pitch, col_pitch;
  __device__ std::uint32_t* cols(unsigned s) const { return col_words + std::size_t(s) * kTile * col_pitch; }
  __device__ float* col_norms(unsigned n) const { return row_norms + (1 + n) * kTile; }
};

template <Operands kOperands>
__device__ inline RowTileStages row_tile_stages(const TensorOperands& in, std::uint32_t* words) {
  const unsigned row_pitch = norm_tile::row_words(in.stride, kOperands);
  const unsigned col_pitch = norm_tile::row_words(in.chunk, kOperands);
  std::uint32_t* const col_words = words + std::size_t(kTile) * row_pitch;
  float* const row_norms = reinterpret_cast<float*>(col_words + 2 * std::size_t(kTile) * col_pitch);
  return {words, col_words, row_norms, row_pitch, col_pitch};
}

// Starts copying this warp's column slab (norm_tile::slab_copiers) of chunk c (of in.chunk dimensions) of
// column tile `tile` into stage s, with the slab's norms into norm set n where c is 0, as one copy group.
template <Operands kOperands>
__device__ inline void stage_slab(const RowTileStages& t, const TensorOperands& in, std::uint32_t tile, unsigned c,
                                  unsigned s, unsigned n) {
  const unsigned slab = norm_tile::warp_col();
  std::uint32_t* const words = t.cols(s) + slab * t.col_pitch;
  float* const norms = t.col_norms(n) + slab;
  const std::uint32_t first = tile * kTile + slab;
  const norm_tile::Copiers who = norm_tile::slab_copiers();
  const unsigned packed = packed_words(in.stride, kOperands), chunk_words = packed_words(in.chunk, kOperands);
  const unsigned offset = c * chunk_words, length = min(chunk_words, packed - offset);
  norm_tile::stage_words_async(words, t.col_pitch, in.cols, packed, offset, length, in.col_count, first, who);
  if (c == 0) norm_tile::stage_norms_async(norms, in.col_norms, in.col_count, first, who);
  norm_tile::commit_copies();
}

// Refills the row tile with tile `tile`, under block barriers: every warp is done with the old one
// before, and sees the new one after.
template <Operands kOperands>
__device__ inline void restage_rows(const RowTileStages& t, const TensorOperands& in, std::uint32_t tile) {
  __syncthreads();
  norm_tile::stage_async<kOperands>(t.rows, t.row_norms, in.rows, in.row_norms, in.row_count, tile * kTile, in.stride);
  norm_tile::wait_copies();
  __syncthreads();
}

// The accumulators of tile pair `pair` over its column tile's chunks (one where rows are whole), each
// waited for and met by the slab's two warps before it is read: the copy of the next chunk (or of the
// next pair's first, with its norms, where there is one: `more`) starts while the current one is used.
// Stages alternate from chunk to chunk (s), norm sets from pair to pair (n).
template <Operands kOperands, bool kStreamed>
__device__ inline void accumulate_pair(const RowTileStages& t, const TensorOperands& in, TilePair pair, TilePair next,
                                       bool more, unsigned& s, unsigned n, norm_tile::Accumulators& acc) {
  const unsigned chunks = kStreamed ? (in.stride + in.chunk - 1) / in.chunk : 1;
  const unsigned chunk_words = packed_words(in.chunk, kOperands);
  const unsigned col_count = min(kTile, in.col_count - pair.tb * kTile);
  for (unsigned c = 0; c < chunks; ++c, s ^= 1) {
    norm_tile::wait_copies();
    norm_tile::sync_slab();  // the chunk is in; both warps are done with the stage the next copy refills
    if (c + 1 < chunks)
      stage_slab<kOperands>(t, in, pair.tb, c + 1, s ^ 1, n);
    else if (more)
      stage_slab<kOperands>(t, in, next.tb, 0, s ^ 1, n ^ 1);
    const norm_tile::StagedTile rows{t.rows + c * chunk_words, nullptr, 0}, cols{t.cols(s), t.col_norms(n), col_count};
    const unsigned dims = min(in.chunk, in.stride - c * in.chunk);
    if (c == 0) {  // two calls, so that each knows whether it starts from the column terms
      norm_tile::ColumnStarts starts;
      norm_tile::column_starts(cols, in.bounds.keep, starts);
      norm_tile::accumulate_dims<kOperands>(rows, cols, t.row_pitch, t.col_pitch, dims, &starts, acc);
    } else {
      norm_tile::accumulate_dims<kOperands>(rows, cols, t.row_pitch, t.col_pitch, dims, nullptr, acc);
    }
  }
}

// Norm form on tensor cores: pairs the accept side proves are emitted, the other candidates decided by
// the exact test on the difference form of the frame's rows (a, b, exact_stride). Each block takes a
// contiguous run of work items, so its row tile of whole rows changes rarely (restage_rows). Each column
// slab's two warps copy their slab of the next column tile (kStreamed: of the next chunk of dimensions
// of it) into shared memory while they compute the current one, and wait only for each other
// (norm_tile::sync_slab): with one barrier for the block, a third of the warps' time went to waiting
// there for the block's slowest warp. kStreamed where whole column tiles do not fit beside the row tile.
// kMinBlocks: blocks a multiprocessor must hold, 2 where two blocks' tiles fit its shared memory.
// Split operands at two blocks have no registers to spare for the accept side (128 a thread: it spilled,
// and 1 M x 32 clustered points ran 8 % slower), so there every candidate is re-checked, as before it;
// at one block (rows of 64 to 144 dimensions, and streamed rows of 160 to 272) they keep it.
template <Operands kOperands, int kMinBlocks>
constexpr bool kAcceptSide = kOperands == Operands::Plain || kMinBlocks == 1;
// Plain operands' candidates are re-checked by a warp's lanes together where they are few: manifolds,
// whose lanes rarely hold more than one, ran 4 % (128 dimensions) to 31 % (960) faster. Split operands'
// lanes re-check their own: the choice cost their kernels at two blocks 5 to 11 % (W5, W1).
template <Operands kOperands>
constexpr bool kRecheckTogether = kOperands == Operands::Plain;

template <Operands kOperands, int kMinBlocks, bool kStreamed>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tensor_kernel(TensorOperands in, const float* a, const float* b, unsigned exact_stride, ExactPairTest test,
                  bool self, std::uint64_t first, std::uint64_t last, PairOutput out) {
  extern __shared__ float4 shared_vectors[];
  const RowTileStages t = row_tile_stages<kOperands>(in, reinterpret_cast<std::uint32_t*>(shared_vectors));
  const std::uint64_t tiles_a = (in.row_count + kTile - 1) / kTile, tiles_b = (in.col_count + kTile - 1) / kTile;
  const auto [begin, end] = block_items(first, last);
  if (begin >= end) return;
  TilePair pair = tile_pair(begin, self, tiles_a, tiles_b);
  stage_slab<kOperands>(t, in, pair.tb, 0, 0, 0);
  std::uint32_t staged_row_tile = UINT32_MAX;
  unsigned s = 0, n = 0;
  for (std::uint64_t item = begin; item < end; ++item, n ^= 1) {
    if (pair.ta != staged_row_tile) {
      staged_row_tile = pair.ta;
      restage_rows<kOperands>(t, in, pair.ta);
    }
    const TilePair next = next_tile_pair(pair, self, tiles_b);
    norm_tile::Accumulators acc;
    accumulate_pair<kOperands, kStreamed>(t, in, pair, next, item + 1 < end, s, n, acc);
    const norm_tile::StagedTile row_tile{t.rows, t.row_norms, min(kTile, in.row_count - pair.ta * kTile)};
    const norm_tile::StagedTile col_tile{nullptr, t.col_norms(n), min(kTile, in.col_count - pair.tb * kTile)};
    const norm_tile::TileMasks masks =
        norm_tile::masks_of<kAcceptSide<kOperands, kMinBlocks>>(acc, row_tile, col_tile, in.bounds);
    emit_candidates<kRecheckTogether<kOperands>>(masks, pair, a, b, exact_stride, test, self, out);
    pair = next;
  }
}

// Shared memory of the long rows' form: stage s (0 or 1) of the chunks holds a row tile and a column
// tile of `chunk` dimensions, `pitch` words a row, its bulk copies completing on barrier `full(s)`; norm
// set n (0 or 1) a tile pair's row and column norms.
struct ChunkStages {
  std::uint32_t* words;
  float* norms;
  std::uint64_t* barriers;
  std::size_t tile_words;
  __device__ std::uint32_t* rows(unsigned s) const { return words + 2 * s * tile_words; }
  __device__ std::uint32_t* cols(unsigned s) const { return words + (2 * s + 1) * tile_words; }
  __device__ float* row_norms(unsigned n) const { return norms + 2 * n * kTile; }
  __device__ float* col_norms(unsigned n) const { return norms + (2 * n + 1) * kTile; }
  __device__ std::uint64_t* full(unsigned s) const { return barriers + s; }
};

// The words of chunk c of tile `tile` of a side laid out by chunk_major (`count` rows, `pitch` words a row).
__device__ inline const std::uint32_t* chunk_tile(const std::uint32_t* words, std::uint32_t count, unsigned c,
                                                  std::uint32_t tile, unsigned pitch) {
  return words + (c * whole_tiles_rows(count, kTile) + std::size_t(tile) * kTile) * pitch;
}

// Starts copying chunk c of tile pair p into stage s, each tile's chunk one bulk copy from the operands laid
// out by chunk_major, completing on the stage's barrier; where c is 0, the pair's norms into norm set n, as
// one cp.async group. Staged 16 bytes an instruction by the whole block, the two tiles' chunks took a third
// of the kernel's instructions; a bulk copy a row took as many (the compiler issues a warp's 32 copies one
// lane at a time).
template <Operands kOperands>
__device__ inline void stage_chunk(const ChunkStages& stages, const TensorOperands& in, TilePair p, unsigned c,
                                   unsigned s, unsigned n) {
  const unsigned pitch = norm_tile::row_words(in.chunk, kOperands);
  const unsigned tile_bytes = kTile * pitch * sizeof(std::uint32_t);
  if (threadIdx.x == 0) {
    bulk::arrive_expecting(stages.full(s), 2 * tile_bytes);
    bulk::copy(stages.rows(s), chunk_tile(in.rows, in.row_count, c, p.ta, pitch), tile_bytes, stages.full(s));
    bulk::copy(stages.cols(s), chunk_tile(in.cols, in.col_count, c, p.tb, pitch), tile_bytes, stages.full(s));
  }
  if (c > 0) return;
  norm_tile::stage_norms_async(stages.row_norms(n), in.row_norms, in.row_count, p.ta * kTile);
  norm_tile::stage_norms_async(stages.col_norms(n), in.col_norms, in.col_count, p.tb * kTile);
  norm_tile::commit_copies();
}

// The long rows' form, where not even a row tile of whole rows fits beside streamed column chunks
// (tensor_tile_layout.hpp: split operands from 288 dimensions, plain ones from 752): each tile pair is accumulated over
// chunks of in.chunk dimensions, the next chunk (or the next pair's first, with its norms) copied while the current one
// is used, by two bulk copies (stage_chunk) that the block waits for on the stage's barrier, two blocks a
// multiprocessor. The products run in the same order onto the same accumulators as
// tensor_kernel's, so its error bound holds unchanged; the rest is as there. Each block takes every gridDim-th work
// item in tile_order.hpp's order, so that the blocks running at once read the same few tiles, from L2. Pair p's norm
// set is refilled (for pair p + 2) at the last chunk of pair p + 1, after that chunk's barrier, which every warp
// passes only once done with p's masks.
template <Operands kOperands>
__global__ void __launch_bounds__(kThreads, 2)
    chunked_tensor_kernel(TensorOperands in, const float* a, const float* b, unsigned exact_stride, ExactPairTest test,
                          bool self, std::uint64_t first, std::uint64_t last, PairOutput out) {
  extern __shared__ float4 shared_vectors[];
  __shared__ std::uint64_t barriers[2];
  const unsigned pitch = norm_tile::row_words(in.chunk, kOperands);
  const std::size_t tile_words = std::size_t(kTile) * pitch;
  std::uint32_t* const words = reinterpret_cast<std::uint32_t*>(shared_vectors);
  const ChunkStages stages{words, reinterpret_cast<float*>(words + 4 * tile_words), barriers, tile_words};
  const unsigned chunks = (in.stride + in.chunk - 1) / in.chunk;
  const std::uint64_t tiles_a = (in.row_count + kTile - 1) / kTile, tiles_b = (in.col_count + kTile - 1) / kTile;
  if (first + blockIdx.x >= last) return;
  if (threadIdx.x == 0) bulk::init(stages.full(0)), bulk::init(stages.full(1)), bulk::init_done();
  __syncthreads();
  TilePair pair = grouped_tile_pair(first + blockIdx.x, self, tiles_a, tiles_b);
  stage_chunk<kOperands>(stages, in, pair, 0, 0, 0);
  unsigned s = 0, n = 0, parities = 0;  // bit s: the parity of stage s's next phase
  for (std::uint64_t item = first + blockIdx.x; item < last; item += gridDim.x, n ^= 1) {
    const bool more = item + gridDim.x < last;
    const TilePair next = more ? grouped_tile_pair(item + gridDim.x, self, tiles_a, tiles_b) : pair;
    const norm_tile::StagedTile row_norms{nullptr, stages.row_norms(n), min(kTile, in.row_count - pair.ta * kTile)};
    const norm_tile::StagedTile col_norms{nullptr, stages.col_norms(n), min(kTile, in.col_count - pair.tb * kTile)};
    norm_tile::Accumulators acc;
    for (unsigned c = 0; c < chunks; ++c, s ^= 1) {
      norm_tile::wait_copies();
      bulk::wait(stages.full(s), parities >> s & 1);
      parities ^= 1u << s;
      // One block barrier a chunk: chunk c is in, and every warp is done with the chunk before, whose stage
      // the next copy refills while this one is used.
      __syncthreads();
      if (c + 1 < chunks)
        stage_chunk<kOperands>(stages, in, pair, c + 1, s ^ 1, n);
      else if (more)
        stage_chunk<kOperands>(stages, in, next, 0, s ^ 1, n ^ 1);
      const norm_tile::StagedTile rows{stages.rows(s), nullptr, 0}, cols{stages.cols(s), nullptr, 0};
      const unsigned dims = min(in.chunk, in.stride - c * in.chunk);
      if (c == 0) norm_tile::start_accumulators(col_norms, in.bounds.keep, acc);
      norm_tile::accumulate_dims<kOperands>(rows, cols, pitch, pitch, dims, nullptr, acc);
    }
    const norm_tile::TileMasks masks =
        norm_tile::masks_of<kAcceptSide<kOperands, 2>>(acc, row_norms, col_norms, in.bounds);
    emit_candidates<kRecheckTogether<kOperands>>(masks, pair, a, b, exact_stride, test, self, out);
    pair = next;
  }
}

// What the tensor-core form joins: rows of `a` against rows of `b` (the same set for a self-join), `dims`
// real dimensions each, every pair within the squared distance `reject` a candidate and, where `accept` is
// positive, every pair within it a pair (the exact test's bounds, ExactBand); `reference` is a point near
// their middle.
struct TensorJoin {
  const DevicePoints& a;
  const DevicePoints& b;
  std::size_t dims;
  bool self;
  float reject, accept;
  std::vector<float> reference;
};

// The translated points and the operands of the tensor-core form, or nothing where the form does
// not apply (the reason goes to `notes`).
struct TensorInputs {
  std::vector<CenteredPoints> sets;  // a, then b for A-join-B
  TensorOperands operands;
  Operands kind = Operands::Split;
  norm_tile::TileLayout layout;  // whole rows or chunks of dimensions, the block's shared memory
  int blocks_per_multiprocessor = 0;
};

// The share of sampled pairs within eps^2 plus twice the rounding band `widest_band`, and how a note
// says it.
struct BandShare {
  double share;
  std::string words;
};

BandShare band_share(float widest_band, float reject, const DevicePoints& da, const DevicePoints& db, std::size_t dims,
                     bool self) {
  const double share = sampled_share_within(da, db, dims, reject + 2 * widest_band, self);
  std::ostringstream words;
  words << std::setprecision(2) << "the rounding band (" << widest_band / reject << " eps^2) lets " << 100 * share
        << "% of sampled pairs through";
  return {share, words.str()};
}

// Whether a rounding band (widest_band) lets few enough pairs through to re-check: at once where it is
// within kBandTakenAtOnce of eps^2; where it is wider but within eps^2, where a sample finds at most
// `max_share` of the pairs within eps^2 plus twice the band (what it let through goes to `sampled`).
// Why not goes to `why_not`.
bool band_fits(float widest_band, double max_share, float reject, const DevicePoints& da, const DevicePoints& db,
               std::size_t dims, bool self, std::string& why_not, std::string& sampled) {
  if (!(widest_band <= kBandLimit * reject)) {
    why_not = "CUDA cores: the points' spread makes the tensor-core form's rounding band (" +
              std::to_string(widest_band) + ") wider than eps^2";
    return false;
  }
  if (widest_band <= kBandTakenAtOnce * reject) return true;
  const BandShare share = band_share(widest_band, reject, da, db, dims, self);
  if (share.share > max_share) {
    why_not = "CUDA cores: in the tensor-core form " + share.words + ", too many to re-check";
    return false;
  }
  sampled = "; " + share.words;
  return true;
}

// The widest rounding band of the form with these operands: f (|p|^2 + |q|^2) at the largest norms,
// plus what widened_bound adds to the reject bound.
float widest_band(Operands kind, unsigned stride, float max_norm, float reject, float bound) {
  return norm_tile::bound_factor(stride, kind) * 2 * max_norm + (bound - reject);
}

// Plain FP16 operands where their band lets few pairs through: at once where it is narrow (a wide eps
// against the points' spread: manifolds, wide joins), else by sample (tight clusters far apart: unit
// vectors in 10,000 clusters at eps 0.09 have a band of 0.3 eps^2, which only a cluster's own pairs
// reach); split ones otherwise, where theirs does. Why neither goes to `notes`.
std::optional<Operands> choose_operands(const TensorJoin& join, unsigned stride, float max_norm, float bound,
                                        std::vector<std::string>& notes, std::string& sampled) {
  const float reject = join.reject;
  std::string why_not;
  if (band_fits(widest_band(Operands::Plain, stride, max_norm, reject, bound), kMaxPlainCandidateShare, reject, join.a,
                join.b, join.dims, join.self, why_not, sampled))
    return Operands::Plain;
  if (band_fits(widest_band(Operands::Split, stride, max_norm, reject, bound), kMaxCandidateShare, reject, join.a,
                join.b, join.dims, join.self, why_not, sampled))
    return Operands::Split;
  notes.push_back(why_not);
  return std::nullopt;
}

norm_tile::TileBounds tile_bounds(Operands kind, const TensorJoin& join, unsigned stride, float bound, float scale) {
  const float f = norm_tile::bound_factor(stride, kind), f2 = norm_tile::accept_factor(f);
  const float accept = norm_tile::narrowed_accept(join.accept, join.dims, stride, scale);
  const float scale2 = scale * scale;
  return {(1 - f) * scale2, bound * scale2, (1 + f2) * scale2, 0.5f * (f + f2) * scale2,
          accept > 0 ? accept * scale2 : -1.0f};
}

// Calls use(kernel) with the tensor-core kernel for t's operands, form and blocks a multiprocessor.
template <Operands kOperands, typename Use>
void with_tensor_kernel(const norm_tile::TileLayout& layout, Use use) {
  if (layout.chunked)
    use(chunked_tensor_kernel<kOperands>);
  else if (layout.streamed)
    use(tensor_kernel<kOperands, 1, true>);
  else
    layout.two_blocks ? use(tensor_kernel<kOperands, 2, false>) : use(tensor_kernel<kOperands, 1, false>);
}

template <typename Use>
void with_tensor_kernel(const TensorInputs& t, Use use) {
  t.kind == Operands::Plain ? with_tensor_kernel<Operands::Plain>(t.layout, use)
                            : with_tensor_kernel<Operands::Split>(t.layout, use);
}

std::size_t shared_per_multiprocessor() {
  int device = 0, bytes = 0;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  SIMJOIN_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  return std::size_t(bytes);
}

void prepare_kernel(TensorInputs& t) {
  with_tensor_kernel(t, [&](auto kernel) {
    SIMJOIN_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(t.layout.bytes)));
    SIMJOIN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&t.blocks_per_multiprocessor, kernel,
                                                                     int(kThreads), t.layout.bytes));
  });
}

// The long rows' form stages each tile's chunk by one bulk copy: its operands are laid out chunk by chunk.
void lay_out_by_chunk(TensorInputs& t) {
  const unsigned packed = packed_words(t.operands.stride, t.kind), chunk_words = packed_words(t.layout.chunk, t.kind);
  const unsigned pitch = norm_tile::row_words(t.layout.chunk, t.kind);
  for (CenteredPoints& set : t.sets) set.words = chunk_major(set.words, set.n, packed, chunk_words, pitch, kTile);
  t.operands.rows = t.sets.front().words.data();
  t.operands.cols = t.sets.back().words.data();
}

std::optional<TensorInputs> tensor_inputs(const TensorJoin& join, std::vector<std::string>& notes) {
  TensorInputs t;
  const unsigned stride = unsigned((join.dims + 15) / 16 * 16);
  float scale = 1, bound = 0;
  std::string sampled;
  std::optional<Operands> kind;
  t.sets = center_points(
      join.self ? std::vector<const DevicePoints*>{&join.a} : std::vector<const DevicePoints*>{&join.a, &join.b},
      join.dims, join.reference, scale, [&](float max_norm, float found_scale) {
        bound = norm_tile::widened_bound(join.reject, join.dims, stride, found_scale);
        kind = choose_operands(join, stride, max_norm, bound, notes, sampled);
        return kind;
      });
  if (!kind) return std::nullopt;
  const CenteredPoints& ca = t.sets.front();
  const CenteredPoints& cb = t.sets.back();
  t.kind = *kind;
  t.operands = {ca.words.data(), ca.norms.data(), std::uint32_t(ca.n),
                cb.words.data(), cb.norms.data(), std::uint32_t(cb.n),
                stride,          stride,          tile_bounds(t.kind, join, stride, bound, scale)};
  t.layout = norm_tile::tile_layout(stride, t.kind, shared_per_multiprocessor(), kMaxSharedBytes);
  t.operands.chunk = t.layout.chunk;
  if (t.layout.chunked) lay_out_by_chunk(t);
  prepare_kernel(t);
  const std::string staged = t.layout.chunked ? ", rows staged " : ", column tiles staged ";
  const std::string chunks = t.layout.chunked || t.layout.streamed
                                 ? staged + std::to_string(t.layout.chunk) + " dimensions at a time"
                                 : std::string();
  const std::string decided =
      join.accept > 0 ? ", pairs inside the accept bound emitted at once, the other candidates" : ", every candidate";
  notes.push_back(std::string("tensor cores: norm form from ") + (t.kind == Operands::Plain ? "plain" : "split") +
                  " FP16 operands" + chunks + decided +
                  " re-checked in float32 and float64 where float32 cannot decide" + sampled);
  return t;
}

// The frame's rows, joined whole.
TensorJoin whole_rows(const JoinInputs& inputs, const DevicePoints& da, const DevicePoints& db) {
  const bool self = inputs.self_join();
  return {da,
          db,
          inputs.a->dims(),
          self,
          inputs.band.reject,
          inputs.band.accept,
          reference_point(*inputs.a, self ? nullptr : &inputs.queries())};
}

// The lifted points of the principal-components filter (core/engines/component_filter.hpp), with the
// squared radius that holds every pair within the search radius (core/numeric/lifted_bound.hpp).
struct LiftedSets {
  ComponentFilter filter;
  LiftedPoints a;
  std::optional<LiftedPoints> b;  // for A join B
  float reject = 0;
};

// The lifted points where the filter is chosen, else none (where lifting leaves them too large for the
// tensor-core form's float32 norms, the reason goes to `notes`).
std::optional<LiftedSets> lifted_sets(GpuRun& run, const DevicePoints& da, const DevicePoints& db,
                                      std::vector<std::string>& notes) {
  const JoinInputs& inputs = run.inputs;
  std::optional<ComponentFilter> filter;
  {
    Phase phase(run, "components");
    filter = choose_component_filter(*inputs.a, inputs.self_join() ? nullptr : inputs.b, inputs.search_radius,
                                     run.params.components, run.params.seed, &run.control);
  }
  if (!filter) return std::nullopt;
  Phase phase(run, "lifting");
  LiftedSets sets{*filter, lift_points(da, *filter), std::nullopt, 0};
  if (!inputs.self_join()) sets.b = lift_points(db, *filter);
  const double max_norm = std::max(sets.a.max_norm, sets.b ? sets.b->max_norm : 0.0);
  const double radius = lifted::lifted_radius(inputs.search_radius, max_norm, sets.filter.error_factor, sets.filter.k);
  // Rounded up to float32; norms this far below float32's largest keep the tensor-core form's sums finite.
  sets.reject = float_above(radius * radius);
  if (!(max_norm < 0x1p60) || !(sets.reject < 0x1p120f)) {
    notes.push_back("principal components: the points lie too far from their middle for float32 lifted points");
    return std::nullopt;
  }
  return sets;
}

TensorJoin lifted_rows(const LiftedSets& sets, bool self) {
  std::vector<float> reference(sets.filter.lifted_dims(), 0.0f);
  reference.back() = sets.filter.mean_residual;
  const DevicePoints& b = sets.b ? sets.b->points : sets.a.points;
  return {sets.a.points, b, sets.filter.lifted_dims(), self, sets.reject, -1.0f, std::move(reference)};
}

}  // namespace

Capabilities GpuBruteForceEngine::capabilities() const {
  Capabilities caps = GpuEngine::capabilities();
  caps.spread_matters = true;  // the tensor-core form's band
  return caps;
}

void GpuBruteForceEngine::join(GpuRun& run) const {
  join_all_pairs(run, upload_inputs(run.resources, run.inputs, 4, run.stats(), &run.control));
}

void join_all_pairs(GpuRun& run, const DeviceInputs& device) {
  const DevicePoints& da = device.a;
  const DevicePoints& db = device.queries();
  const bool self = run.self();
  const std::size_t dims = run.inputs.a->dims();
  std::vector<std::string>& notes = run.stats().notes;
  std::optional<LiftedSets> lifted;
  if (component_filter_considered(run.params.components, dims)) lifted = lifted_sets(run, da, db, notes);
  std::optional<TensorInputs> tensor;
  {
    Phase phase(run, "translate");
    if (lifted) tensor = tensor_inputs(lifted_rows(*lifted, self), notes);
    if (tensor)
      notes.push_back(lifted->filter.note());
    else if (dims >= kTensorMinDims)
      tensor = tensor_inputs(whole_rows(run.inputs, da, db), notes);
    lifted.reset();  // packed into the operands: the join needs the lifted rows no more
  }
  if (tensor)
    for (const CenteredPoints& set : tensor->sets) run.stats().extra_bytes += set.words.bytes() + set.norms.bytes();
  const std::uint32_t na = std::uint32_t(da.n), nb = std::uint32_t(db.n);
  const unsigned stride = unsigned(da.stride);
  const std::uint64_t tiles_a = (na + kTile - 1) / kTile, tiles_b = (nb + kTile - 1) / kTile;
  const std::uint64_t items = self ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b;
  PairBatches(run.resources, run.sink, run.params)
      .run(
          items, BatchPlan{},
          [&](std::uint64_t first, std::uint64_t last, const PairOutput& out, cudaStream_t stream) {
            if (tensor) {
              const unsigned blocks = persistent_blocks(last - first, tensor->blocks_per_multiprocessor);
              with_tensor_kernel(*tensor, [&](auto kernel) {
                kernel<<<blocks, kThreads, tensor->layout.bytes, stream>>>(tensor->operands, da.coords.data(),
                                                                           db.coords.data(), stride, device.exact.test,
                                                                           self, first, last, out);
              });
            } else {
              difference_kernel<<<persistent_blocks(last - first, kBlocksPerMultiprocessor), kThreads, 0, stream>>>(
                  da.coords.data(), na, db.coords.data(), nb, stride, device.exact.test, self, first, last, out);
            }
          },
          run.control, run.stats());
  run.stats().compared_pairs = candidate_pairs(self, na, nb);
}

}  // namespace simjoin::gpu
