#pragma once
// The order of an epsilon-grid's non-empty cells, shared by cpu-grid (core/engines/detail/epsilon_grid.*)
// and gpu-grid (cuda/engines/gpu_grid.cu): cells are keyed by their integer coordinates, not by a linear
// id over the bounding box, and sorted as tuples with the last slot most significant. The three
// cells (x - 1, x, x + 1) of a row along the first slot, the other slots equal, are then adjacent in
// the order: a row is one binary search and a contiguous range of cells.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

// cell_floor and the cell width are in core/numeric/numeric_rules.hpp, shared with the GPU.

// The sorted cells [first, last) of `cells` (count cells of m coordinates each) that are
// (x, c[1], ..., c[m-1]) with low <= x <= high. With m = 0 that is the one cell.
SIMJOIN_HOST_DEVICE inline void cell_run(const std::int64_t* cells, std::uint32_t count, int m, const std::int64_t* c,
                                         std::int64_t low, std::int64_t high, std::uint32_t& first,
                                         std::uint32_t& last) {
  // -1, 0, 1 as cell t's slots 1..m-1 compare with c's, last slot first.
  const auto compare_upper = [&](std::uint32_t t) {
    const std::int64_t* x = cells + std::size_t(t) * m;
    for (int s = m - 1; s >= 1; --s)
      if (x[s] != c[s]) return x[s] < c[s] ? -1 : 1;
    return 0;
  };
  std::uint32_t lo = 0, hi = count;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const int upper = compare_upper(mid);
    if (upper < 0 || (upper == 0 && m > 0 && cells[std::size_t(mid) * m] < low))
      lo = mid + 1;
    else
      hi = mid;
  }
  first = last = lo;
  while (last < count && compare_upper(last) == 0 && (m == 0 || cells[std::size_t(last) * m] <= high)) ++last;
}

// Key of slots [first, last) of a cell for a radix sort: slot s in bits[s] bits above the slots
// before it, so keys order like the tuples (coordinates are >= 0 and below 2^bits[s]).
SIMJOIN_HOST_DEVICE inline std::uint64_t cell_key(const std::int64_t* c, int first, int last, const int* bits) {
  std::uint64_t key = 0;
  for (int s = last - 1; s >= first; --s) key = (key << bits[s]) | std::uint64_t(c[s]);
  return key;
}

// Consecutive slot ranges [first, last) whose bits fit one 64-bit key, from the least significant
// (slot 0) up: sorting stably by each range's keys in turn (LSD) sorts the cells as tuples. Most
// grids need one key; each slot has at most 61 bits (kMaxCellsPerDim).
inline std::vector<std::pair<int, int>> cell_key_ranges(const std::vector<int>& bits) {
  std::vector<std::pair<int, int>> ranges;
  int used = 0;
  for (int s = 0; s < int(bits.size()); ++s) {
    if (ranges.empty() || used + bits[s] > 64) {
      ranges.push_back({s, s});
      used = 0;
    }
    ++ranges.back().second;
    used += bits[s];
  }
  return ranges;
}

}  // namespace simjoin
