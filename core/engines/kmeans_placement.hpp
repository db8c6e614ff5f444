#pragma once
// KMEANS-JOIN's placement of points among k-means partitions, with the copies near the bisectors
// that make the join exact (the proof is in kmeans_placement.cpp): what cpu-kmeans runs, what the
// Step through tab replays and what simjoin.distributed plans its partitions with.
#include <cstdint>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// The replication test: should point s, a member of partition i (centroid ci), be copied into
// partition j (centroid cj)? Evaluated in float64 with a margin, so it may say yes to a point
// within rounding of the band, never no to a point inside it.
bool in_bisector_band(const float* s, const float* ci, const float* cj, std::size_t d, double eps);

// Own partition and copies of every point, in point order.
struct Placement {
  std::vector<std::uint32_t> own;
  std::vector<std::uint32_t> copy_point, copy_partition;
};

// KMEANS-JOIN's placement of points (float32 frame coordinates) among the partitions of `centroids`
// (k x d, same frame): each point's own partition (own[p], or its nearest centroid where own is null)
// and, with `replicate`, every other partition whose bisector band of width eps (the frame's search
// radius) holds it. simjoin.distributed plans its partitions with this same function.
Placement place_points(const PointSet32& points, const std::vector<std::uint32_t>* own,
                       const std::vector<float>& centroids, double eps, bool replicate, int threads,
                       RunControl& control);

}  // namespace simjoin
