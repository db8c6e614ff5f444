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

// What a join reads: the partitionings a and b (one object for Self), whose points have rows of
// a.source_stride floats (b's alike), and how their pairs are reported.
struct JoinedPartitions {
  const PartitionedPoints& a;
  const PartitionedPoints& b;
  JoinShape shape;
  std::uint32_t a_first_id = 0;  // NewAgainstAll: the id of a's first point
};

// Where a join's pairs go and what it runs with, all on the current GPU: `test` decides each pair
// (core/numeric/exact_test.hpp; for Cross its rows are indices in a and b, otherwise it reads one set of
// all points twice), the run's resources and parameters, the sink, and the stats that the join's phases
// are added to (cuda/detail/pair_batches.hpp).
struct PartitionJoinRun {
  const ExactPairTest& test;
  GpuResources& resources;
  const JoinParams& params;
  PairSink& sink;
  RunStats& stats;
};

// Joins work items [first, last) of `work` on the current GPU (the partitionings and the test's values
// live there) and adds the finished items to progress.
void join_partition_items(const JoinedPartitions& join, const PartitionWork& work, std::uint64_t first,
                          std::uint64_t last, const PartitionJoinRun& run, SharedProgress& progress);

// Joins the k partitions of a with those of b; adds the compared pairs to run.stats too.
void join_partitions(const JoinedPartitions& join, std::size_t k, const PartitionJoinRun& run, RunControl& control);

}  // namespace simjoin::gpu
