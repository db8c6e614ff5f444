#pragma once
// k-means++ seeding (Arthur and Vassilvitskii 2007) on the GPU, for gpu-kmeans and gpu-rejoin: the
// first centre is a uniform draw from the sample, each further one a draw weighted by the squared
// distance to the nearest centre chosen so far. A round is three launches (distances, prefix sum,
// draw) with no host round trip, so a thousand centres take milliseconds where a host loop over
// sample x k x d took a large part of a second.
#include <cstddef>
#include <cstdint>

#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

// k (1 <= k <= sample.n) centres drawn from `sample` (of `dims` real dimensions) with a generator
// seeded by `seed`: k x sample.stride floats, rows of the sample as they are (zero-padded).
DeviceBuffer<float> kmeans_plus_plus(const DevicePoints& sample, std::size_t dims, std::size_t k, std::uint64_t seed);

}  // namespace simjoin::gpu
