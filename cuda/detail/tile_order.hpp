#pragma once
// The order in which gpu-bruteforce's long rows' form takes its tile pairs: the row tiles in groups of
// kOrderGroup, each group's pairs column tile by column tile, every block of a launch taking every
// gridDim-th work item. The blocks running at once then read the group's row tiles and a few column
// tiles, which stay in L2. Each block taking a contiguous run of work items instead, the blocks read
// tiles no other block was reading: on Gist1M's manifold at a fifth, 54 % of L2's reads hit, and DRAM
// ran at 72 % of its peak. Host logic, tested without a GPU (tests/cuda/detail/test_tile_order.cpp).
#include <cstdint>

#include "core/numeric/host_device.hpp"

namespace simjoin::gpu {

// Row tiles a group: about the square root of the blocks running at once (264 on an H100), so that
// they read as few tiles as they can.
constexpr std::uint32_t kOrderGroup = 16;

// A work item's row tile and column tile.
struct TilePair {
  std::uint32_t ta, tb;
};

// A self-join's pairs (ta <= tb) before row tile `row`, of `tiles` tiles.
SIMJOIN_HOST_DEVICE inline std::uint64_t self_pairs_before(std::uint64_t row, std::uint64_t tiles) {
  return row * tiles - (row == 0 ? 0 : row * (row - 1) / 2);
}

// The group of row tiles that a self-join's work item falls in: the last whose pairs start at or before it.
SIMJOIN_HOST_DEVICE inline std::uint64_t self_group_of(std::uint64_t item, std::uint64_t tiles) {
  std::uint64_t low = 0, high = (tiles + kOrderGroup - 1) / kOrderGroup;  // item's group is in [low, high)
  while (high - low > 1) {
    const std::uint64_t middle = (low + high) / 2;
    (self_pairs_before(middle * kOrderGroup, tiles) <= item ? low : high) = middle;
  }
  return low;
}

// Pair `local` of a self-join's group whose first row tile is `first` and which has `rows` row tiles: a
// triangle over its first `rows` column tiles (column first + k holds rows first to first + k), then
// every row of the group for each later column.
SIMJOIN_HOST_DEVICE inline TilePair self_pair_in_group(std::uint64_t local, std::uint64_t first, std::uint64_t rows) {
  const std::uint64_t triangle = rows * (rows + 1) / 2;
  if (local >= triangle) {
    const std::uint64_t past = local - triangle;
    return {std::uint32_t(first + past % rows), std::uint32_t(first + rows + past / rows)};
  }
  std::uint64_t k = 0;
  while ((k + 1) * (k + 2) / 2 <= local) ++k;  // at most kOrderGroup steps
  return {std::uint32_t(first + local - k * (k + 1) / 2), std::uint32_t(first + k)};
}

// Work item `item`'s tile pair: of the upper triangle of tiles_a tiles (ta <= tb) for a self-join, of
// all tiles_a x tiles_b otherwise.
SIMJOIN_HOST_DEVICE inline TilePair grouped_tile_pair(std::uint64_t item, bool self, std::uint64_t tiles_a,
                                                      std::uint64_t tiles_b) {
  if (self) {
    const std::uint64_t first = self_group_of(item, tiles_a) * kOrderGroup;
    const std::uint64_t rows = tiles_a - first < kOrderGroup ? tiles_a - first : kOrderGroup;
    return self_pair_in_group(item - self_pairs_before(first, tiles_a), first, rows);
  }
  const std::uint64_t first = item / (kOrderGroup * tiles_b) * kOrderGroup;
  const std::uint64_t rows = tiles_a - first < kOrderGroup ? tiles_a - first : kOrderGroup;
  const std::uint64_t local = item - first * tiles_b;
  return {std::uint32_t(first + local % rows), std::uint32_t(local / rows)};
}

}  // namespace simjoin::gpu
