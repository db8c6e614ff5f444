#pragma once
// How many pairs a widened distance bound would let through, estimated from a sample: gpu-bruteforce
// asks it before taking the tensor-core form, whose rounding band turns every pair within eps plus
// the band into a candidate that must be re-checked one by one.
#include <cstddef>

#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

// The share of pairs (up to 64 evenly spaced rows of `rows`, fewer where their `dims` coordinates
// would not fit in 96 KiB) x (every point of `cols`) whose float32 squared distance over `dims`
// dimensions is at most `limit`. For a self-join (`self`, the same set twice) a row's pair with itself
// is left out. 1 where not even one row fits in shared memory.
double sampled_share_within(const DevicePoints& rows, const DevicePoints& cols, std::size_t dims, float limit,
                            bool self);

}  // namespace simjoin::gpu
