#pragma once
// Replication and grouping for gpu-kmeans (algorithms.md, KMEANS-JOIN steps 2-3). Each point gets a
// sorted list of the partitions it belongs to: its own and, with replication, every partition j
// whose bisector band it lies in, |s - c_j|^2 - |s - c_i|^2 <= 2 eps |c_i - c_j|, tested in float64
// with a safety margin so that rounding can add a copy but never lose one. The (point, partition)
// entries are then grouped by partition with CUB: histogram, exclusive scan, scatter.
//
// The copies are counted before anything of their size is allocated. Their lists are built only where
// they fit the GPU's free memory (`listed`); the join gathers the coordinates of the grouped entries,
// stride floats each, all at once where they fit, otherwise a range of partitions at a time
// (gather_partitions), so that no replication runs out of memory.
#include <cstdint>
#include <vector>

#include "cuda/detail/kmeans_cluster.hpp"

namespace simjoin::gpu {

struct PartitionedPoints {
  std::uint64_t entries = 0;                    // points plus copies
  bool listed = false;                          // the arrays below were built (the entries fit)
  DeviceBuffer<unsigned long long> list_begin;  // n + 1 offsets into lists
  DeviceBuffer<std::uint32_t> lists;            // each point's partitions, ascending
  DeviceBuffer<unsigned long long> part_begin;  // k + 1 offsets into the grouped arrays
  std::vector<unsigned long long> part_begin_host;
  DeviceBuffer<std::uint32_t> grouped_ids;  // point ids grouped by partition
  const float* source = nullptr;            // the points that grouped_ids number, stride floats each
  std::uint64_t source_rows = 0;
  std::size_t source_stride = 0;
  DeviceBuffer<float> source_copy;  // owns `source` where it was copied from another GPU
  double replication_seconds = 0, sort_seconds = 0;
};

// |c_i - c_j| for every pair of centroids, k x k, float64.
DeviceBuffer<double> centroid_gaps(const DeviceClustering& clustering, std::size_t stride);

PartitionedPoints partition_points(const DevicePoints& points, const std::uint32_t* membership,
                                   const DeviceClustering& clustering, const double* gaps, double eps, bool replicate);

// The coordinates of the entries of partitions [first, last), parts.source_stride floats each, from
// entry `first_entry` on.
struct GatheredRange {
  DeviceBuffer<float> coords;
  std::uint64_t first_entry = 0;
};
GatheredRange gather_partitions(const PartitionedPoints& parts, std::size_t first, std::size_t last);

// Rows ids[0, count) of `points` (stride floats each, a multiple of 4), copied into a new buffer.
DeviceBuffer<float> gather_rows(const float* points, std::size_t stride, const std::uint32_t* ids, std::uint64_t count,
                                const char* what);

// Bytes that gathered coordinates may take: a third of the GPU's free memory (the join's pair buffers
// need room), or `limit` where that is set (JoinParams::batch_bytes, which tests set small).
std::uint64_t gather_budget(std::uint64_t limit);

// What join_partitions reads of `parts` (which live on GPU `owner`), copied to the current GPU.
PartitionedPoints copy_for_join(const PartitionedPoints& parts, int owner);

// The copies of a partitioning as PartitionStructure lists them (point by point, partitions ascending),
// gathered on the device: every list holds the point's own partition once, so the copies of point p
// start at list_begin[p] - p.
void download_replicas(const PartitionedPoints& parts, const std::uint32_t* membership, std::uint64_t n,
                       std::vector<std::uint32_t>& replica_point, std::vector<std::uint32_t>& replica_partition);

}  // namespace simjoin::gpu
