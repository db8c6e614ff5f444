#pragma once
// k-means for gpu-kmeans: k-means++ seeds chosen on the host from a sample of the points (seeded),
// then Lloyd iterations on the GPU until at most 0.1% of the points change partition (or 25 rounds).
// The membership returned is the nearest centroid of every point for the final centroids.
#include <cstdint>

#include "core/point_set.hpp"
#include "core/run_control.hpp"
#include "cuda/nested_loop_points.hpp"

namespace simjoin::gpu {

struct DeviceClustering {
  std::size_t k = 0;
  std::size_t sample = 0;  // points the seeds were chosen from
  int iterations = 0;
  DeviceBuffer<float> centroids;          // k x stride
  DeviceBuffer<std::uint32_t> membership; // per point
};

DeviceClustering cluster_points(const PointSet& points, const DevicePoints& device_points, std::size_t k,
                                std::uint64_t seed, RunControl& control);

// Nearest centroid (lowest index on ties) of every point of `points`, into membership.
void assign_nearest(const DevicePoints& points, const DeviceClustering& clustering,
                    std::uint32_t* membership);

}  // namespace simjoin::gpu
