#include "app/python/pair_rows.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/base/error.hpp"
#include "core/base/parallel.hpp"

namespace simjoin::python {

namespace {
// Work between two cancellation checks: pairs to count or place, rows to sort. Small, so that a
// thread given a sixth of a core on a loaded machine still checks every few milliseconds.
constexpr std::size_t kPairsPerCheck = std::size_t(1) << 14;
constexpr std::size_t kRowsPerCheck = 1024;
constexpr std::int64_t kEntriesPerCheck = std::int64_t(1) << 14;

constexpr std::size_t kSmallSort = std::size_t(1) << 16;  // pairs a comparison sort takes in ~3 ms
constexpr int kDigitBits = 8;
constexpr std::size_t kDigits = std::size_t(1) << kDigitBits;

std::uint64_t key(const Pair& pair) { return std::uint64_t(pair.i) << 32 | pair.j; }

// Sorts pairs[0, count), whose keys agree above bit `shift + kDigitBits`, in place: an in-place
// partition on the key's digit at `shift` (American flag sort: each pair out of place is swapped to
// the next free slot of its digit), then each part sorted the same way on the next digit down, small
// parts by comparison. The loops check for cancellation every kPairsPerCheck pairs, and before each part.
void radix_sort(Pair* pairs, std::size_t count, int shift, RunControl& control, bool parallel = false) {
  if (count <= kSmallSort || shift < 0) {
    std::sort(pairs, pairs + count);
    return;
  }
  const auto digit = [shift](const Pair& pair) { return std::size_t(key(pair) >> shift) & (kDigits - 1); };
  std::array<std::size_t, kDigits + 1> start{};
  for (std::size_t k = 0; k < count; ++k) {
    if (k % kPairsPerCheck == 0) control.throw_if_cancelled();
    ++start[digit(pairs[k]) + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::array<std::size_t, kDigits> next;
  std::copy(start.begin(), start.end() - 1, next.begin());
  std::size_t moves = 0;
  for (std::size_t d = 0; d < kDigits; ++d) {
    while (next[d] < start[d + 1]) {
      Pair held = pairs[next[d]];
      for (std::size_t held_digit; (held_digit = digit(held)) != d;) {
        std::swap(held, pairs[next[held_digit]++]);
        if (++moves % kPairsPerCheck == 0) control.throw_if_cancelled();
      }
      pairs[next[d]++] = held;
    }
  }
  const auto sort_part = [&](std::size_t d) {
    radix_sort(pairs + start[d], start[d + 1] - start[d], shift - kDigitBits, control);
  };
  if (parallel) {
    parallel_for_each(kDigits, 0, control, sort_part);
  } else {
    // A check before each part: a part of 4 * 10^5 pairs ends in hundreds of small comparison sorts,
    // tens of milliseconds in all (and over 100 on a loaded machine) with no check of their own.
    for (std::size_t d = 0; d < kDigits; ++d) {
      control.throw_if_cancelled();
      sort_part(d);
    }
  }
}
}  // namespace

void for_row_ranges(const std::vector<std::int64_t>& offsets, RunControl& control,
                    const std::function<void(std::size_t, std::size_t)>& sort_range) {
  // Ranges of at most kRowsPerCheck rows and kEntriesPerCheck entries (or one row holding more): a few
  // milliseconds of sorting each, however the entries spread over the rows.
  std::vector<std::size_t> starts = {0};
  const std::size_t rows = offsets.size() - 1;
  for (std::size_t row = 1; row < rows; ++row)
    if (row - starts.back() >= kRowsPerCheck || offsets[row + 1] - offsets[starts.back()] > kEntriesPerCheck)
      starts.push_back(row);
  starts.push_back(rows);
  parallel_for_each(starts.size() - 1, 0, control,
                    [&](std::size_t range) { sort_range(starts[range], starts[range + 1]); });
}

HostArray<Pair> sorted_by_row(PairListSink& pairs, std::size_t rows, RunControl& control) {
  control.set_phase("sorting pairs");
  HostArray<Pair> sorted(std::size_t(pairs.count()));
  // The highest digit that can differ: that holding the top bit of the largest key.
  const int top_bit = std::bit_width(std::uint64_t(std::max<std::size_t>(rows, 1) - 1) << 32 | 0xffffffffu);
  try {
    std::size_t filled = 0;
    visit_checked(
        pairs, control,
        [&](std::span<const Pair> block) {
          std::memcpy(sorted.data() + filled, block.data(), block.size_bytes());
          filled += block.size();
        },
        /*drain=*/true);
    if (filled != sorted.size()) fail(ErrorKind::Internal, "the pair list holds fewer pairs than counted");
    radix_sort(sorted.data(), sorted.size(), std::max(0, top_bit - kDigitBits), control, /*parallel=*/true);
  } catch (...) {
    // Cancelled while copying too: freeing the part copied so far would hold the caller as long.
    free_in_background(sorted);
    throw;
  }
  return sorted;
}

}  // namespace simjoin::python
