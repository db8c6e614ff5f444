#pragma once
// The join step of gpu-kmeans and gpu-rejoin: every partition joined in one launch of equal-sized
// (partition, tile, tile) work items over the grouped points. A pair held by several partitions is
// reported only by the highest partition both points belong to, so each pair comes out once.
#include <cstdint>
#include <vector>

#include "core/join/engine.hpp"
#include "cuda/detail/kmeans_partition.hpp"

namespace simjoin::gpu {

enum class JoinShape {
  Self,           // a and b are one partitioning: pairs (i, j), i < j
  Cross,          // A-join-B: pairs (index in a, index in b)
  NewAgainstAll,  // a holds the newest points, numbered from a_first_id on, b all points (new ones
                  // included): pairs (q, p) with q < p and p new, i.e. new x old and new x new once each
};

// The work items of joining a with b: partition c owns items [item_begin[c], item_begin[c + 1]), one per
// pair of tiles, so that equal ranges of items are equal work; and the distance tests they make.
struct PartitionWork {
  std::vector<unsigned long long> item_begin;  // k + 1 offsets
  std::uint64_t compared = 0;
};
PartitionWork partition_work(const PartitionedPoints& a, const PartitionedPoints& b, JoinShape shape, std::size_t k);

// Joins work items [first, last) on the current GPU (a, b and test's values live there) into the
// sink (cuda/detail/pair_batches.hpp adds its phases to stats) and the finished items to progress.
// test decides each pair (core/numeric/exact_test.hpp): for Cross its rows are indices in a and b, otherwise
// it reads one set of all points twice.
void join_partition_items(const PartitionedPoints& a, const PartitionedPoints& b, JoinShape shape,
                          std::uint32_t a_first_id, const PartitionWork& work, std::uint64_t first, std::uint64_t last,
                          std::size_t stride, const ExactPairTest& test, GpuResources& resources,
                          const JoinParams& params, PairSink& sink, SharedProgress& progress, RunStats& stats);

// Joins a with b partition by partition into the sink; adds the join's phases and
// the compared pairs to stats.
void join_partitions(const PartitionedPoints& a, const PartitionedPoints& b, JoinShape shape, std::uint32_t a_first_id,
                     std::size_t k, std::size_t stride, const ExactPairTest& test, GpuResources& resources,
                     const JoinParams& params, PairSink& sink, RunControl& control, RunStats& stats);

}  // namespace simjoin::gpu
