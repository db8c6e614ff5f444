#pragma once
// The long rows' operands laid out for bulk copies (gpu_bruteforce.cu's long rows' form): chunk by chunk
// of dimensions, each chunk's rows `pitch` words apart (the padded pitch of a staged row,
// tensor_tile_layout.hpp) and zero rows up to a whole number of tiles, so that a tile's chunk is one
// contiguous run of kTile * pitch words, laid out as it is in shared memory, and a block stages it with
// one bulk copy.
#include <cstddef>
#include <cstdint>

#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

// Rows counted up to a whole number of tiles of `tile` rows.
__host__ __device__ inline std::size_t whole_tiles_rows(std::size_t rows, unsigned tile) {
  return (rows + tile - 1) / tile * tile;
}

// `words` (n rows of `packed` words) rearranged: chunk c's words [c chunk_words, (c + 1) chunk_words) of
// row r at (c whole_tiles_rows(n, tile) + r) pitch, zeros elsewhere.
DeviceBuffer<std::uint32_t> chunk_major(const DeviceBuffer<std::uint32_t>& words, std::size_t n, unsigned packed,
                                        unsigned chunk_words, unsigned pitch, unsigned tile);

}  // namespace simjoin::gpu
