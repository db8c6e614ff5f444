// The order of the long rows' tile pairs (cuda/detail/tile_order.hpp), host logic without a GPU: every
// pair exactly once, and the work items running at once reading few tiles.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "cuda/detail/tile_order.hpp"

namespace simjoin::gpu {
namespace {

// Each work item's pair is valid and none repeats, so the items cover every pair exactly once.
void expect_each_pair_once(bool self, std::uint64_t tiles_a, std::uint64_t tiles_b) {
  SCOPED_TRACE((self ? "self-join of " : "join of ") + std::to_string(tiles_a) + " x " + std::to_string(tiles_b));
  const std::uint64_t items = self ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b;
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (std::uint64_t item = 0; item < items; ++item) {
    const TilePair pair = grouped_tile_pair(item, self, tiles_a, tiles_b);
    ASSERT_LT(pair.ta, tiles_a) << "item " << item;
    ASSERT_LT(pair.tb, tiles_b) << "item " << item;
    if (self) ASSERT_LE(pair.ta, pair.tb) << "item " << item;
    ASSERT_TRUE(seen.insert({pair.ta, pair.tb}).second) << "item " << item << " repeats a pair";
  }
}

TEST(TileOrder, SelfJoinTakesEachPairOnce) {
  for (std::uint64_t tiles : {1, 2, 15, 16, 17, 31, 32, 33, 100, 257}) expect_each_pair_once(true, tiles, tiles);
}

TEST(TileOrder, JoinOfTwoSetsTakesEachPairOnce) {
  for (std::uint64_t tiles_a : {1, 7, 16, 17, 40})
    for (std::uint64_t tiles_b : {1, 3, 16, 50}) expect_each_pair_once(false, tiles_a, tiles_b);
}

// The distinct row and column tiles of items [first, first + count).
std::pair<std::size_t, std::size_t> tiles_read(std::uint64_t first, std::uint64_t count, bool self,
                                               std::uint64_t tiles_a, std::uint64_t tiles_b) {
  std::set<std::uint32_t> rows, cols;
  for (std::uint64_t item = first; item < first + count; ++item) {
    const TilePair pair = grouped_tile_pair(item, self, tiles_a, tiles_b);
    rows.insert(pair.ta);
    cols.insert(pair.tb);
  }
  return {rows.size(), cols.size()};
}

// kOrderGroup squared consecutive items past a group's first columns read one group of row tiles and
// kOrderGroup + 1 column tiles at most, where contiguous runs a block would read one row tile and as many
// column tiles as items.
TEST(TileOrder, ItemsRunningAtOnceReadFewTiles) {
  constexpr std::uint64_t kWindow = kOrderGroup * kOrderGroup, kTiles = 400;
  const std::uint64_t second_group = self_pairs_before(kOrderGroup, kTiles);
  for (std::uint64_t first : {std::uint64_t(200), second_group + 200, second_group + 1000}) {
    const auto [rows, cols] = tiles_read(first, kWindow, true, kTiles, kTiles);
    EXPECT_LE(rows, kOrderGroup) << "from item " << first;
    EXPECT_LE(cols, kOrderGroup + 1) << "from item " << first;
  }
  const auto [rows, cols] = tiles_read(5 * kOrderGroup * kTiles + 77, kWindow, false, kTiles, kTiles);
  EXPECT_LE(rows, kOrderGroup);
  EXPECT_LE(cols, kOrderGroup + 1);
}

// The most tiles a side can have (2^32 points of 128 rows a tile): each group's first item is its first
// row's diagonal tile, and the last items are the last pairs, with no product overflowing on the way.
TEST(TileOrder, LargestTileCountsMapWithoutOverflow) {
  constexpr std::uint64_t kTiles = std::uint64_t(1) << 25;
  for (std::uint64_t row : {std::uint64_t(0), std::uint64_t(kOrderGroup), kTiles / 2, kTiles - kOrderGroup}) {
    const TilePair pair = grouped_tile_pair(self_pairs_before(row, kTiles), true, kTiles, kTiles);
    EXPECT_EQ(pair.ta, row);
    EXPECT_EQ(pair.tb, row);
  }
  const TilePair last_self = grouped_tile_pair(kTiles * (kTiles + 1) / 2 - 1, true, kTiles, kTiles);
  EXPECT_EQ(last_self.ta, kTiles - 1);
  EXPECT_EQ(last_self.tb, kTiles - 1);
  const TilePair last = grouped_tile_pair(kTiles * (kTiles - 3) - 1, false, kTiles, kTiles - 3);
  EXPECT_EQ(last.ta, kTiles - 1);
  EXPECT_EQ(last.tb, kTiles - 4);
}

}  // namespace
}  // namespace simjoin::gpu
