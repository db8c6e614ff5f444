#pragma once
// The shared-memory layout of gpu-bruteforce's tensor-core tiles (norm_form_tile.cuh): the words a staged
// row takes, a block's bytes with tiles of whole rows or of chunks of dimensions, and which of the two a
// row length takes. Host logic, tested without a GPU (tests/cuda/detail/test_tensor_tile_layout.cpp).
#include <cstddef>
#include <cstdint>

#include "cuda/detail/centered_points.hpp"

namespace simjoin::gpu::norm_tile {

constexpr unsigned kTile = 128;  // rows of a tile

// Words per staged row. Split operands' fragment loads are 16 bytes (a lane's four words of a
// 16-dimension step), served per quarter-warp: rows g = 0, 1 must start 16 banks apart, modulo 32,
// which a row length of 16 modulo 32 words gives. Plain operands are read by ldmatrix, 16 bytes of
// each of 8 rows at once: rows must start an odd multiple of 4 banks apart, and a packed plain row
// is a multiple of 8 words (stride / 2), so 4 more words.
__host__ __device__ inline unsigned row_words(unsigned stride, Operands operands) {
  if (operands == Operands::Split) return stride + (stride % 32 == 0 ? 16 : 0);
  return packed_words(stride, operands) + 4;
}

// Shared memory of one block of tensor_kernel: a row tile of whole rows, two column stages of `chunk`
// dimensions (whole rows where chunk is stride: one being filled while the other is used), the row
// norms and two sets of column norms.
__host__ __device__ inline std::size_t shared_bytes(unsigned stride, Operands operands, unsigned chunk) {
  return (std::size_t(kTile) * (row_words(stride, operands) + 2 * row_words(chunk, operands)) + 3 * kTile) *
         sizeof(std::uint32_t);
}
__host__ __device__ inline std::size_t shared_bytes(unsigned stride, Operands operands) {
  return shared_bytes(stride, operands, stride);
}

// Shared memory of one block of the long rows' form (gpu_bruteforce.cu): two stages of a row tile and a
// column tile of `chunk` dimensions each, and two sets of both tiles' norms.
__host__ __device__ inline std::size_t chunked_shared_bytes(unsigned chunk, Operands operands) {
  return (4 * std::size_t(kTile) * row_words(chunk, operands) + 4 * kTile) * sizeof(std::uint32_t);
}

// How a block's tiles lie in shared memory for rows of `stride` dimensions.
struct TileLayout {
  bool chunked = false;     // the long rows' form: both tiles staged a chunk of dimensions at a time
  bool streamed = false;    // a row tile of whole rows, column tiles staged a chunk at a time
  unsigned chunk = 0;       // dimensions staged at a time: stride for whole rows, below it otherwise
  std::size_t bytes = 0;    // a block's shared memory
  bool two_blocks = false;  // two blocks fit a multiprocessor
};

// Whether two blocks of `bytes` fit a multiprocessor's shared memory (1 KiB is reserved a block).
inline bool two_blocks_fit(std::size_t bytes, std::size_t per_multiprocessor) {
  return 2 * (bytes + 1024) <= per_multiprocessor;
}

constexpr unsigned kMinStreamedChunk = 64;  // a shorter chunk's barriers would outweigh its products

// The chunk of streamed column tiles beside a row tile of whole rows within `block_limit`: as many
// chunks as the longest that fits (a multiple of 16, below stride) needs, each as long as the row
// divided among them, rounded up to a multiple of 16 (the last may be shorter); 0 where no chunk of
// kMinStreamedChunk fits.
inline unsigned streamed_chunk(unsigned stride, Operands operands, std::size_t block_limit) {
  unsigned longest = stride - 16;
  while (longest >= kMinStreamedChunk && shared_bytes(stride, operands, longest) > block_limit) longest -= 16;
  if (longest < kMinStreamedChunk) return 0;
  const unsigned chunks = (stride + longest - 1) / longest;
  const unsigned even = ((stride + chunks - 1) / chunks + 15) / 16 * 16;
  return even >= kMinStreamedChunk ? even : longest;
}

// Whole rows where a block's three tiles of them fit in `block_limit` bytes; else a row tile of whole
// rows with column tiles streamed in chunks, where those fit; else the long rows' form, staging the most
// dimensions at a time (a multiple of 16, below stride, so that every tile pair takes two chunks or
// more) at which two blocks fit a multiprocessor of `per_multiprocessor` bytes: 96 dimensions of plain
// operands, 48 of split ones, on a Hopper's 228 KiB.
inline TileLayout tile_layout(unsigned stride, Operands operands, std::size_t per_multiprocessor,
                              std::size_t block_limit) {
  TileLayout layout{false, false, stride, shared_bytes(stride, operands), false};
  if (layout.bytes > block_limit) {
    layout.chunk = streamed_chunk(stride, operands, block_limit);
    layout.streamed = layout.chunk > 0;
    if (layout.streamed) {
      layout.bytes = shared_bytes(stride, operands, layout.chunk);
    } else {
      layout.chunked = true;
      layout.chunk = stride - 16;
      while (layout.chunk > 16 && !two_blocks_fit(chunked_shared_bytes(layout.chunk, operands), per_multiprocessor))
        layout.chunk -= 16;
      layout.bytes = chunked_shared_bytes(layout.chunk, operands);
    }
  }
  layout.two_blocks = two_blocks_fit(layout.bytes, per_multiprocessor);
  return layout;
}

}  // namespace simjoin::gpu::norm_tile
