// gpu-bruteforce's tensor-core tile layout (cuda/detail/tensor_tile_layout.hpp), host logic without a GPU:
// which row lengths take tiles of whole rows, which stream column tiles and which the long rows' form,
// and that every layout fits.
#include <gtest/gtest.h>

#include <string>

#include "cuda/detail/tensor_tile_layout.hpp"

namespace simjoin::gpu::norm_tile {
namespace {

// A Hopper multiprocessor's shared memory (H100, H200: 228 KiB) and a block's largest (227 KiB).
constexpr std::size_t kPerMultiprocessor = 228 * 1024, kBlockLimit = 227 * 1024;

TileLayout laid_out(unsigned stride, Operands operands) {
  return tile_layout(stride, operands, kPerMultiprocessor, kBlockLimit);
}

// Plain operands take whole rows up to 288 dimensions (two blocks a multiprocessor up to 128), split ones
// up to 144. Longer rows keep a row tile of whole rows and stream column tiles in chunks (as even as
// multiples of 16 allow) up to 736 dimensions (plain) or 272 (split), one block a multiprocessor;
// longer still, both tiles are staged 96 (plain) or 48 (split) dimensions at a time, two blocks a
// multiprocessor.
TEST(TensorTileLayout, LongRowsStreamColumnsThenChunkBothTiles) {
  EXPECT_FALSE(laid_out(128, Operands::Plain).streamed);
  EXPECT_TRUE(laid_out(128, Operands::Plain).two_blocks);
  EXPECT_FALSE(laid_out(144, Operands::Plain).two_blocks);
  EXPECT_FALSE(laid_out(288, Operands::Plain).streamed);
  EXPECT_FALSE(laid_out(288, Operands::Plain).chunked);
  EXPECT_TRUE(laid_out(304, Operands::Plain).streamed);
  EXPECT_EQ(laid_out(304, Operands::Plain).chunk, 160u);
  EXPECT_EQ(laid_out(384, Operands::Plain).chunk, 192u);
  EXPECT_EQ(laid_out(448, Operands::Plain).chunk, 160u);  // three chunks: 160, 160, 128
  EXPECT_TRUE(laid_out(736, Operands::Plain).streamed);
  EXPECT_EQ(laid_out(736, Operands::Plain).chunk, 64u);
  EXPECT_TRUE(laid_out(752, Operands::Plain).chunked);
  EXPECT_EQ(laid_out(960, Operands::Plain).chunk, 96u);
  EXPECT_FALSE(laid_out(144, Operands::Split).streamed);
  EXPECT_TRUE(laid_out(160, Operands::Split).streamed);
  EXPECT_EQ(laid_out(160, Operands::Split).chunk, 80u);
  EXPECT_EQ(laid_out(240, Operands::Split).chunk, 80u);  // three chunks
  EXPECT_TRUE(laid_out(272, Operands::Split).streamed);
  EXPECT_TRUE(laid_out(288, Operands::Split).chunked);
  EXPECT_EQ(laid_out(288, Operands::Split).chunk, 48u);
}

// Every row length up to 4,096 dimensions: whole rows within the block limit at their full length;
// streamed column chunks of a multiple of 16 dimensions below the row's own, at least kMinStreamedChunk,
// beside a row tile of whole rows within the block limit; or chunks of both tiles of a multiple of 16
// dimensions below the row's own (every tile pair takes two chunks or more, which the long rows' kernel
// relies on) at which two blocks fit.
TEST(TensorTileLayout, EveryLayoutFits) {
  for (const Operands operands : {Operands::Plain, Operands::Split})
    for (unsigned stride = 16; stride <= 4096; stride += 16) {
      SCOPED_TRACE(std::to_string(stride) + (operands == Operands::Plain ? " plain" : " split"));
      const TileLayout layout = laid_out(stride, operands);
      EXPECT_LE(layout.bytes, kBlockLimit);
      EXPECT_FALSE(layout.streamed && layout.chunked);
      if (!layout.chunked && !layout.streamed) {
        EXPECT_EQ(layout.chunk, stride);
        EXPECT_EQ(layout.bytes, shared_bytes(stride, operands));
        continue;
      }
      EXPECT_LT(layout.chunk, stride);
      EXPECT_EQ(layout.chunk % 16, 0u);
      if (layout.streamed) {
        EXPECT_GE(layout.chunk, kMinStreamedChunk);
        EXPECT_GT(shared_bytes(stride, operands), kBlockLimit);
        EXPECT_EQ(layout.bytes, shared_bytes(stride, operands, layout.chunk));
        continue;
      }
      EXPECT_GE(layout.chunk, 16u);
      EXPECT_TRUE(layout.two_blocks);
      EXPECT_EQ(layout.bytes, chunked_shared_bytes(layout.chunk, operands));
    }
}

}  // namespace
}  // namespace simjoin::gpu::norm_tile
