#pragma once
// Point sets on the device for the nested-loop and k-means engines: rows padded with zero
// coordinates to a multiple of 4 dimensions (zeros on both sides leave distances unchanged), so that
// kernels read 16-byte vectors.
#include <cuda_runtime.h>

#include <cstddef>

#include "core/engine.hpp"
#include "core/point_set.hpp"
#include "cuda/cuda_check.hpp"

namespace simjoin::gpu {

struct DevicePoints {
  DeviceBuffer<float> coords;
  std::size_t n = 0;
  std::size_t stride = 0;  // floats per row, a multiple of 4
};

std::size_t padded_stride(std::size_t dims);
DevicePoints upload_points(const PointSet32& points, cudaStream_t stream = 0);

}  // namespace simjoin::gpu
