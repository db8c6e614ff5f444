#include "app/python/pair_rows.hpp"

#include <algorithm>
#include <numeric>

#include "core/parallel.hpp"

namespace simjoin::python {

std::vector<std::int64_t> row_offsets(std::span<const Pair> pairs, std::size_t rows, bool both_ends, int extra) {
  std::vector<std::int64_t> offsets(rows + 1, extra);
  offsets[0] = 0;
  for (const Pair& pair : pairs) {
    ++offsets[pair.i + 1];
    if (both_ends) ++offsets[pair.j + 1];
  }
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  return offsets;
}

std::vector<Pair> sorted_by_row(std::span<const Pair> pairs, std::size_t rows, RunControl& control) {
  const std::vector<std::int64_t> offsets = row_offsets(pairs, rows, false);
  std::vector<Pair> sorted(pairs.size());
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  for (const Pair& pair : pairs) sorted[std::size_t(next[pair.i]++)] = pair;
  parallel_for_each(rows, 0, control, [&](std::size_t row) {
    std::sort(sorted.begin() + offsets[row], sorted.begin() + offsets[row + 1]);
  });
  return sorted;
}

}  // namespace simjoin::python
