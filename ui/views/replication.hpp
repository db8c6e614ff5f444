#pragma once
// What KMEANS-JOIN's replication did, per partition and per point, and the geometry of its
// bisectors and epsilon-bands in the viewed plane (Korkmaz 2012, sec. 4.2).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/join/run_stats.hpp"
#include "core/points/point_set.hpp"
#include "ui/views/view_plane.hpp"

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

// The signed distance of x to the bisector of centroids ci and cj, positive on ci's side, in full
// dimension: (|x - cj|^2 - |x - ci|^2) / (2 |ci - cj|). cpu-kmeans copies a point of partition i into
// j when this is at most eps (core/engines/cpu_kmeans.cpp, in_bisector_band).
double bisector_distance(const double* x, const double* ci, const double* cj, std::size_t d);

struct CopyReason {
  std::uint32_t partition = 0;
  double h = 0;  // bisector_distance to that partition's centroid
};

// Where one point went: its own partition, the copies the engine made of it (from the structure,
// ascending by partition) with their h, and the nearest bisector it was not copied across (none when
// k = 1 or it was copied everywhere).
struct PointCopies {
  std::uint32_t home = 0;
  std::vector<CopyReason> copies;
  std::optional<CopyReason> nearest_kept;
};
PointCopies point_copies(const PartitionStructure& partitions, const PointSet& points, std::uint32_t point);

// The pairs one copy made possible: the point's neighbours (within eps) whose home is the receiving
// partition. Such a neighbour is copied into the point's home as well (each of the two lies within eps
// of their bisector), so the pair is found in both partitions; duplicate elimination reports it only
// from the highest partition holding both points, which is this one for `reported_here` of them.
struct CopyPairs {
  std::uint32_t partition = 0;
  std::vector<std::uint32_t> neighbours;  // ascending
  std::size_t reported_here = 0;
};
// One entry per copy of `copies`, in its order; `neighbours` are the point's, ascending.
std::vector<CopyPairs> pairs_by_copy(const PartitionStructure& partitions, const PointCopies& copies,
                                     const std::vector<std::uint32_t>& neighbours);

struct Polygon2d {
  std::vector<double> xy;  // vertices x0, y0, x1, y1, ... in order
};

// Where the view plane meets the Voronoi cell of `partition` (its edges lie on the traces of the
// bisector hyperplanes), inside the box [low, high] of plane coordinates, and the same with every
// bisector pushed out by eps in full dimension (the band from which the partition receives copies).
// For 2-D data on any axes these are the cell and band themselves.
struct PartitionCell {
  Polygon2d cell;
  Polygon2d band;
};
PartitionCell partition_cell_in_plane(const PartitionStructure& partitions, std::uint32_t partition, double eps,
                                      const ViewPlane& plane, const double low[2], const double high[2]);

}  // namespace simjoin::ui
