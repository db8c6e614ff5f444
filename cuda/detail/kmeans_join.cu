#include "cuda/detail/kmeans_join.hpp"

#include <algorithm>
#include <vector>

#include "cuda/detail/difference_tile.cuh"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/pair_batches.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kBlocksPerMultiprocessor = 2;

struct GroupedView {
  const float* coords;  // the coordinates of entries from first_entry on
  std::uint64_t first_entry;
  const std::uint32_t* ids;
  const unsigned long long* part_begin;
  const unsigned long long* list_begin;
  const std::uint32_t* lists;
};

GroupedView view(const PartitionedPoints& p, const GatheredRange& gathered) {
  return {gathered.coords.data(), gathered.first_entry, p.grouped_ids.data(),
          p.part_begin.data(),    p.list_begin.data(),  p.lists.data()};
}

// The highest partition in both ascending lists.
__device__ std::uint32_t highest_common(const std::uint32_t* a, long long na, const std::uint32_t* b, long long nb) {
  long long x = na - 1, y = nb - 1;
  while (x >= 0 && y >= 0) {
    if (a[x] == b[y]) return a[x];
    if (a[x] > b[y])
      --x;
    else
      --y;
  }
  return 0xFFFFFFFFu;
}

__global__ void __launch_bounds__(tile::kThreads, kBlocksPerMultiprocessor)
    kmeans_join_kernel(GroupedView a, GroupedView b, const unsigned long long* item_begin, std::uint32_t k,
                       unsigned stride, ExactPairTest test, JoinShape shape, std::uint32_t a_first_id,
                       std::uint64_t first, std::uint64_t last, PairOutput out) {
  __shared__ tile::Shared shared;
  const bool self = shape == JoinShape::Self;
  for (std::uint64_t item = first + blockIdx.x; item < last; item += gridDim.x) {
    // The partition whose items contain `item`: the last c with item_begin[c] <= item.
    std::uint32_t low = 0, high = k - 1;
    while (low < high) {
      const std::uint32_t mid = (low + high + 1) / 2;
      if (item_begin[mid] <= item)
        low = mid;
      else
        high = mid - 1;
    }
    const std::uint32_t c = low;
    const std::uint64_t local = item - item_begin[c];
    const std::uint64_t size_a = a.part_begin[c + 1] - a.part_begin[c];
    const std::uint64_t size_b = b.part_begin[c + 1] - b.part_begin[c];
    const std::uint64_t tiles_b = (size_b + tile::kTile - 1) / tile::kTile;
    std::uint32_t ta, tb;
    if (self) {
      tile::triangle_item(local, tiles_b, ta, tb);
    } else {
      ta = std::uint32_t(local / tiles_b);
      tb = std::uint32_t(local % tiles_b);
    }
    const std::uint64_t row0 = a.part_begin[c] + std::uint64_t(ta) * tile::kTile;
    const std::uint64_t col0 = b.part_begin[c] + std::uint64_t(tb) * tile::kTile;
    const std::uint64_t rest_a = size_a - std::uint64_t(ta) * tile::kTile;
    const std::uint64_t rest_b = size_b - std::uint64_t(tb) * tile::kTile;
    const unsigned rows = unsigned(rest_a < tile::kTile ? rest_a : tile::kTile);
    const unsigned cols = unsigned(rest_b < tile::kTile ? rest_b : tile::kTile);
    float acc[tile::kPerThread][tile::kPerThread];
    tile::distances(shared, a.coords + (row0 - a.first_entry) * stride, rows,
                    b.coords + (col0 - b.first_entry) * stride, cols, stride, acc);
    unsigned long long mask = tile::within(acc, test.band.reject);
    if (mask) {
      const bool diagonal = self && ta == tb;
      mask = tile::filter(mask, [&](unsigned r, unsigned col) {
        if (r >= rows || col >= cols || (diagonal && r >= col)) return false;
        const std::uint32_t p = a.ids[row0 + r], q = b.ids[col0 + col];
        if (shape == JoinShape::NewAgainstAll && q >= a_first_id + p) return false;
        return highest_common(a.lists + a.list_begin[p], a.list_begin[p + 1] - a.list_begin[p],
                              b.lists + b.list_begin[q], b.list_begin[q + 1] - b.list_begin[q]) == c;
      });
    }
    // The pair of a bit, as reported: (index in a, index in b) for Cross, ordered ids otherwise. The
    // exact test is symmetric, so it reads the same pair from its (a, b) values (one set but for Cross).
    const auto pair_of = [&](int bit) {
      const std::uint32_t p = a.ids[row0 + tile::bit_row(bit)], q = b.ids[col0 + tile::bit_col(bit)];
      if (shape == JoinShape::Self) return Pair{min(p, q), max(p, q)};
      if (shape == JoinShape::Cross) return Pair{p, q};
      return Pair{q, a_first_id + p};
    };
    if (mask) mask = tile::exact_bits(mask, acc, test, pair_of);
    emit_mask_warp(out, mask, pair_of);
  }
}
// The partition whose work items hold `item`: the last c with item_begin[c] <= item.
std::size_t partition_of(const PartitionWork& work, std::uint64_t item) {
  return std::size_t(std::upper_bound(work.item_begin.begin(), work.item_begin.end(), item) - work.item_begin.begin()) -
         1;
}

// The rounds of joining items [first, last): ranges of the partitions holding them whose gathered
// coordinates, of a and b together, fit the budget. A partition alone always fits in practice: it
// holds each point at most once.
std::vector<std::size_t> plan_rounds(const PartitionedPoints& a, const PartitionedPoints& b, bool same,
                                     const PartitionWork& work, std::uint64_t first, std::uint64_t last,
                                     std::size_t stride, std::uint64_t budget) {
  const std::size_t from = partition_of(work, first), to = partition_of(work, last - 1) + 1;
  const auto entries = [](const PartitionedPoints& p, std::size_t c) {
    return p.part_begin_host[c + 1] - p.part_begin_host[c];
  };
  std::vector<std::size_t> bounds{from};
  std::uint64_t bytes = 0;
  for (std::size_t c = from; c < to; ++c) {
    const std::uint64_t part = (entries(a, c) + (same ? 0 : entries(b, c))) * stride * sizeof(float);
    if (bytes > 0 && bytes + part > budget) {
      bounds.push_back(c);
      bytes = 0;
    }
    bytes += part;
  }
  bounds.push_back(to);
  return bounds;
}
}  // namespace

PartitionWork partition_work(const PartitionedPoints& a, const PartitionedPoints& b, JoinShape shape, std::size_t k) {
  // Work items: per partition, the triangle (self-join) or rectangle of its tile pairs.
  const bool self = shape == JoinShape::Self;
  if (!a.listed || !b.listed)
    fail(ErrorKind::OutOfMemory, "the copies of the partitions (" + std::to_string(a.entries + b.entries) +
                                     " entries) do not fit the GPU's memory: choose a smaller eps or k");
  PartitionWork work;
  work.item_begin.assign(k + 1, 0);
  for (std::size_t c = 0; c < k; ++c) {
    const std::uint64_t size_a = a.part_begin_host[c + 1] - a.part_begin_host[c];
    const std::uint64_t size_b = b.part_begin_host[c + 1] - b.part_begin_host[c];
    const std::uint64_t tiles_a = (size_a + tile::kTile - 1) / tile::kTile;
    const std::uint64_t tiles_b = (size_b + tile::kTile - 1) / tile::kTile;
    work.item_begin[c + 1] = work.item_begin[c] + (self ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b);
    work.compared += self ? size_a * (size_a - (size_a > 0)) / 2 : size_a * size_b;
  }
  return work;
}

void join_partition_items(const JoinedPartitions& join, const PartitionWork& work, std::uint64_t first,
                          std::uint64_t last, const PartitionJoinRun& run, SharedProgress& progress) {
  const PartitionedPoints &a = join.a, &b = join.b;
  // One kernel reads both sets' gathered rows with one stride.
  if (a.source_stride != b.source_stride) fail(ErrorKind::Internal, "partitionings joined with different strides");
  const std::size_t stride = a.source_stride;
  const std::size_t k = work.item_begin.size() - 1;
  DeviceBuffer<unsigned long long> item_begin_device(k + 1, "work item offsets");
  item_begin_device.upload(work.item_begin.data(), k + 1);
  if (first >= last) return;
  const bool same = &a == &b;
  const std::vector<std::size_t> rounds =
      plan_rounds(a, b, same, work, first, last, stride, gather_budget(run.params.batch_bytes));
  if (rounds.size() > 2 && !run.params.batch_bytes)
    run.stats.notes.push_back("the grouped points exceed a third of the GPU's free memory: partitions joined in " +
                              std::to_string(rounds.size() - 1) + " rounds");
  PairBatches batches(run.resources, run.sink, run.params);
  for (std::size_t r = 0; r + 1 < rounds.size(); ++r) {
    const std::uint64_t from = std::max<std::uint64_t>(first, work.item_begin[rounds[r]]);
    const std::uint64_t to = std::min<std::uint64_t>(last, work.item_begin[rounds[r + 1]]);
    if (from >= to) continue;
    const GatheredRange range_a = gather_partitions(a, rounds[r], rounds[r + 1]);
    const GatheredRange range_b = same ? GatheredRange{} : gather_partitions(b, rounds[r], rounds[r + 1]);
    const GroupedView view_a = view(a, range_a), view_b = same ? view_a : view(b, range_b);
    batches.run(
        from, to, BatchPlan{},
        [&](std::uint64_t begin, std::uint64_t end, const PairOutput& out, cudaStream_t stream) {
          kmeans_join_kernel<<<persistent_blocks(end - begin, kBlocksPerMultiprocessor), tile::kThreads, 0, stream>>>(
              view_a, view_b, item_begin_device.data(), std::uint32_t(k), unsigned(stride), run.test, join.shape,
              join.a_first_id, begin, end, out);
        },
        progress, run.stats);
  }
}

void join_partitions(const JoinedPartitions& join, std::size_t k, const PartitionJoinRun& run, RunControl& control) {
  const PartitionWork work = partition_work(join.a, join.b, join.shape, k);
  const std::uint64_t items = work.item_begin.back();
  SharedProgress progress(control, double(items));
  join_partition_items(join, work, 0, items, run, progress);
  run.stats.compared_pairs += work.compared;
}

}  // namespace simjoin::gpu
