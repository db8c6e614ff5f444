#pragma once
// What KMEANS-JOIN's replication did, per partition, and the geometry of its epsilon-bands.
#include <cstdint>
#include <vector>

#include "core/run_stats.hpp"

namespace simjoin::ui {

struct PartitionCounts {
  std::uint64_t own = 0;       // points whose partition this is
  std::uint64_t received = 0;  // copies of other partitions' points placed here
  std::uint64_t sent = 0;      // copies of this partition's points placed elsewhere
};

// One entry per partition. Throws Error(BadInput) when a membership or replica names a partition
// >= k or a replica names a point outside the membership list.
std::vector<PartitionCounts> replication_counts(const PartitionStructure& partitions);

// Per point, the number of copies made of it.
std::vector<std::uint32_t> copies_per_point(const PartitionStructure& partitions);

// Points copied into `partition`, ascending.
std::vector<std::uint32_t> received_by(const PartitionStructure& partitions, std::uint32_t partition);

struct Polygon2d {
  std::vector<double> xy;  // vertices x0, y0, x1, y1, ... in order
};

// For 2-D centroids: the Voronoi cell of `partition` inside the box [low, high] (its edges lie on
// the bisectors), and the same cell with every bisector pushed out by eps (the band from which it
// receives copies). Empty polygons when the data is not 2-D.
struct PartitionCell {
  Polygon2d cell;
  Polygon2d band;
};
PartitionCell partition_cell_2d(const PartitionStructure& partitions, std::uint32_t partition,
                                double eps, const double low[2], const double high[2]);

}  // namespace simjoin::ui
