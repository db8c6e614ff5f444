#include "core/io/point_labels.hpp"

#include <algorithm>
#include <climits>

namespace simjoin {

NeighborCountSink::NeighborCountSink(std::size_t points_a, bool self_join) : counts_(points_a), self_join_(self_join) {}

std::vector<std::int32_t> NeighborCountSink::counts() const {
  std::vector<std::int32_t> result(counts_.size());
  for (std::size_t p = 0; p < counts_.size(); ++p)
    result[p] = std::int32_t(std::min<std::uint64_t>(counts_[p].load(), INT32_MAX));
  return result;
}

void NeighborCountSink::consume(std::span<const Pair> pairs) {
  for (const Pair& pair : pairs) {
    counts_[pair.i].fetch_add(1, std::memory_order_relaxed);
    if (self_join_) counts_[pair.j].fetch_add(1, std::memory_order_relaxed);
  }
}

IntArrays point_labels(std::size_t points_a, const RunResult& result, const NeighborCountSink& neighbors) {
  std::vector<std::int32_t> partition(points_a, -1), replicated(points_a, 0);
  if (const auto& parts = result.partitions) {
    for (std::size_t p = 0; p < std::min(points_a, parts->membership.size()); ++p)
      partition[p] = std::int32_t(parts->membership[p]);
    for (std::uint32_t point : parts->replica_point)
      if (point < points_a) ++replicated[point];
  }
  return {
      {"partition", std::move(partition)}, {"replicated", std::move(replicated)}, {"neighbors", neighbors.counts()}};
}

}  // namespace simjoin
