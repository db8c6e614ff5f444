#include "cuda/detail/boehm_directory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/points/pca.hpp"

namespace simjoin::gpu {

namespace {
// Work between two cancel checks, a few milliseconds on one core: rows gathered (a cache miss each),
// multiply-adds of the rotation or values scanned, swaps of a partition.
constexpr std::size_t kGatherRowsPerPiece = std::size_t(1) << 16;
constexpr std::size_t kOperationsPerPiece = std::size_t(1) << 22;
constexpr std::size_t kSwapsPerCheck = std::size_t(1) << 18;
// Ranges up to this length are selected by std::nth_element in one go.
constexpr std::ptrdiff_t kDirectSelect = std::ptrdiff_t(1) << 16;
// Median-of-three partitioning is slow only on crafted inputs; after this many rounds
// std::nth_element, whose worst case is bounded, finishes the range.
constexpr int kMaxPartitionRounds = 64;
// Quantiles that A join B's queries are cut into before each is sorted (a cancel check in between).
constexpr int kQueryParts = 256;

// A point id with the key it is ordered by at the current level. The selections and sorts run on
// these contiguous pairs, not through the ids into the rotated rows.
struct Entry {
  float key;
  std::uint32_t id;
};
bool by_key(const Entry& x, const Entry& y) { return x.key < y.key; }
using Entries = std::vector<Entry, DefaultInitAllocator<Entry>>;

// Calls row(i) for every i in [0, n), on all cores, in pieces of rows_per_piece rows with a cancel
// check before each.
template <typename Row>
void for_rows(std::size_t n, std::size_t rows_per_piece, const RunControl& control, const Row& row) {
  for (std::size_t begin = 0; begin < n; begin += rows_per_piece) {
    control.throw_if_cancelled();
    const auto end = std::ptrdiff_t(std::min(n, begin + rows_per_piece));
#pragma omp parallel for schedule(static)
    for (auto i = std::ptrdiff_t(begin); i < end; ++i) row(std::size_t(i));
  }
}

float largest_magnitude(const Coordinates<float>& values, const RunControl& control) {
  float largest = 0;
  for (std::size_t begin = 0; begin < values.size(); begin += kOperationsPerPiece) {
    control.throw_if_cancelled();
    const auto end = std::ptrdiff_t(std::min(values.size(), begin + kOperationsPerPiece));
#pragma omp parallel for schedule(static) reduction(max : largest)
    for (auto i = std::ptrdiff_t(begin); i < end; ++i) largest = std::max(largest, std::fabs(values[std::size_t(i)]));
  }
  return largest;
}

// n x d rotated coordinates of `points`, in their order. Like every array of n rows here it is left
// uninitialised (see DefaultInitAllocator) until the pieces fill it: a zero fill of its own would be a
// long stretch without a cancel check.
Coordinates<float> rotate_points(const BoehmDirectory& directory, const PointSet32& points, const RunControl& control) {
  const std::size_t n = points.size(), d = directory.d;
  Coordinates<float> out(n * d);
  for_rows(n, std::max<std::size_t>(1, kOperationsPerPiece / (d * d)), control, [&](std::size_t i) {
    const float* p = points.point(i);
    for (std::size_t c = 0; c < d; ++c) {
      const double* axis = directory.components.data() + c * d;
      double y = 0;
      for (std::size_t k = 0; k < d; ++k) y += axis[k] * (double(p[k]) - directory.mean[k]);
      out[i * d + c] = float(y);
    }
  });
  return out;
}

// Sets entries[i].key to dimension k of entry i's rotated row.
void load_keys(Entries& entries, const Coordinates<float>& rotated, std::size_t d, std::size_t k,
               const RunControl& control) {
  for_rows(entries.size(), kGatherRowsPerPiece, control,
           [&](std::size_t i) { entries[i].key = rotated[std::size_t(entries[i].id) * d + k]; });
}

// std::nth_element by key, in steps: while the range is long, one Hoare partition around the median
// of three, with cancel checks; std::nth_element finishes once it is short.
void select_nth(Entry* first, Entry* nth, Entry* last, const RunControl& control) {
  if (nth == last) return;
  Entry* e = first;
  const std::ptrdiff_t target = nth - first;
  std::ptrdiff_t lo = 0, hi = last - first;
  for (int round = 0; hi - lo > kDirectSelect && round < kMaxPartitionRounds; ++round) {
    control.throw_if_cancelled();
    const std::ptrdiff_t mid = lo + (hi - lo) / 2;
    if (by_key(e[mid], e[lo])) std::swap(e[mid], e[lo]);
    if (by_key(e[hi - 1], e[lo])) std::swap(e[hi - 1], e[lo]);
    if (by_key(e[hi - 1], e[mid])) std::swap(e[hi - 1], e[mid]);
    // The median of the three goes first: the scans below then stay in the range, and both parts are
    // non-empty.
    std::swap(e[lo], e[mid]);
    const float pivot = e[lo].key;
    std::ptrdiff_t i = lo - 1, j = hi;
    for (std::size_t swaps = 1;; ++swaps) {
      do ++i;
      while (e[i].key < pivot);
      do --j;
      while (pivot < e[j].key);
      if (i >= j) break;
      std::swap(e[i], e[j]);
      if (swaps % kSwapsPerCheck == 0) control.throw_if_cancelled();
    }
    // Keys in [lo, j] are at most the pivot, keys in [j + 1, hi) at least; lo <= j < hi - 1.
    if (target <= j)
      hi = j + 1;
    else
      lo = j + 1;
  }
  std::nth_element(e + lo, e + target, e + hi, by_key);
}

// Places the cuts between `parts` quantiles of [first, first + size) by key: the middle cut first,
// then each half, so O(size log parts).
void cut_quantiles(Entry* first, std::size_t size, int parts, const RunControl& control) {
  const auto cut = [&](int f) { return first + size * std::size_t(f) / std::size_t(parts); };
  const auto select = [&](auto& self, int f0, int f1) -> void {
    if (f1 - f0 < 2) return;
    const int middle = (f0 + f1) / 2;
    select_nth(cut(f0), cut(middle), cut(f1), control);
    self(self, f0, middle);
    self(self, middle, f1);
  };
  select(select, 0, parts);
}

// Sorts each of the `parts` quantiles placed by cut_quantiles, which sorts the whole range.
void sort_quantiles(Entry* first, std::size_t size, int parts, const RunControl& control) {
  for (int f = 0; f < parts; ++f) {
    control.throw_if_cancelled();
    std::sort(first + size * std::size_t(f) / std::size_t(parts),
              first + size * std::size_t(f + 1) / std::size_t(parts), by_key);
  }
}
}  // namespace

Coordinates<float> gather_rows(const float* values, const std::vector<std::uint32_t>& order, std::size_t d,
                               const RunControl& control) {
  Coordinates<float> out(order.size() * d);
  for_rows(order.size(), kGatherRowsPerPiece, control, [&](std::size_t r) {
    std::copy_n(values + std::size_t(order[r]) * d, d, out.begin() + std::ptrdiff_t(r * d));
  });
  return out;
}

BoehmDirectory build_boehm_directory(const PointSet32& points, int levels, int fanout, const RunControl& control) {
  BoehmDirectory dir;
  const std::size_t n = points.size(), d = points.dims();
  dir.d = d;
  // On the float32 frame coordinates, each widened exactly as it is read.
  const Pca pca = fit_pca(points, kPcaSample, 1, &control);
  dir.mean = pca.mean;
  dir.components = pca.components;
  const Coordinates<float> rotated = rotate_points(dir, points, control);

  // Level by level: every group cut into `fanout` quantiles of the level's dimension, which costs
  // O(n log fanout) a level instead of a sort's O(n log n). The last level also sorts each page, as a
  // sort of its groups would, so that consecutive queries (a block's) stay close.
  Entries entries(n);
  for_rows(n, kGatherRowsPerPiece, control, [&](std::size_t i) { entries[i].id = std::uint32_t(i); });
  std::vector<std::size_t> bounds{0, n};
  const int depth = int(std::min<std::size_t>(std::size_t(levels), d));
  for (int level = 0; level < depth; ++level) {
    load_keys(entries, rotated, d, std::size_t(level), control);
    std::vector<std::size_t> next{0};
    for (std::size_t g = 0; g + 1 < bounds.size(); ++g) {
      const std::size_t size = bounds[g + 1] - bounds[g];
      Entry* group = entries.data() + bounds[g];
      cut_quantiles(group, size, fanout, control);
      if (level + 1 == depth) sort_quantiles(group, size, fanout, control);
      for (int f = 1; f <= fanout; ++f) {
        const std::size_t position = bounds[g] + size * std::size_t(f) / std::size_t(fanout);
        if (position > next.back()) next.push_back(position);
      }
    }
    bounds = std::move(next);
  }
  dir.page_begin.assign(bounds.begin(), bounds.end());
  dir.order.resize(n);
  for_rows(n, kGatherRowsPerPiece, control, [&](std::size_t r) { dir.order[r] = entries[r].id; });

  dir.rotated = gather_rows(rotated.data(), dir.order, d, control);
  // Rounding of the rotation in double and of the float32 store, with a wide margin.
  dir.rounding = largest_magnitude(rotated, control) * 1e-6f * float(1 + d / 64);
  const std::size_t pages = dir.page_begin.size() - 1;
  dir.page_low.assign(pages * d, std::numeric_limits<float>::max());
  dir.page_high.assign(pages * d, std::numeric_limits<float>::lowest());
  control.throw_if_cancelled();
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t p = 0; p < std::ptrdiff_t(pages); ++p)
    for (std::size_t r = dir.page_begin[std::size_t(p)]; r < dir.page_begin[std::size_t(p) + 1]; ++r)
      for (std::size_t k = 0; k < d; ++k) {
        float& low = dir.page_low[std::size_t(p) * d + k];
        float& high = dir.page_high[std::size_t(p) * d + k];
        low = std::min(low, dir.rotated[r * d + k]);
        high = std::max(high, dir.rotated[r * d + k]);
      }
  return dir;
}

BoehmQueries order_queries(const BoehmDirectory& directory, const PointSet32& queries, const RunControl& control) {
  const std::size_t n = queries.size(), d = directory.d;
  BoehmQueries result;
  const Coordinates<float> rotated = rotate_points(directory, queries, control);
  Entries entries(n);
  for_rows(n, kGatherRowsPerPiece, control, [&](std::size_t i) { entries[i] = {rotated[i * d], std::uint32_t(i)}; });
  const int parts = int(std::min<std::size_t>(kQueryParts, std::max<std::size_t>(n, 1)));
  cut_quantiles(entries.data(), n, parts, control);
  sort_quantiles(entries.data(), n, parts, control);
  result.order.resize(n);
  for_rows(n, kGatherRowsPerPiece, control, [&](std::size_t r) { result.order[r] = entries[r].id; });
  result.rotated = gather_rows(rotated.data(), result.order, d, control);
  result.points = gather_rows(queries.data(), result.order, d, control);
  result.largest = largest_magnitude(rotated, control);
  return result;
}

}  // namespace simjoin::gpu
