#pragma once
// Point sets on the device, the one way every GPU engine uploads them: rows padded with zero
// coordinates to a multiple of a row width (zeros on both sides leave distances unchanged), 4 for
// kernels that read 16-byte vectors, 1 for those that read rows as they are.
#include <cuda_runtime.h>

#include <cstddef>

#include "core/points/point_set.hpp"
#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

struct DevicePoints {
  DeviceBuffer<float> coords;
  std::size_t n = 0;
  std::size_t stride = 0;  // floats per row, a multiple of the row width asked for
};

// Enqueues the copy on `stream`; work on other streams must wait for it.
DevicePoints upload_points(GpuResources& resources, const PointSet32& points, std::size_t row_multiple,
                           cudaStream_t stream = 0);

}  // namespace simjoin::gpu
