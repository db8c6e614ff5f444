#pragma once
// Points for the norm form of the squared distance, |p|^2 + |q|^2 - 2 p.q, which tensor cores
// compute as a matrix product (norm_form_tile.cuh). Its rounding error grows with the norms, so the
// points are first translated to put a reference point near their middle at the origin (distances
// are unchanged), then scaled by a power of two that brings the largest coordinate near 2^14 (inside
// FP16's range) and split into FP16 parts (split_half_mma.cuh). Rows are zero-padded to a multiple of
// 16 dimensions, the depth of one tensor-core step; each dimension takes one 32-bit word.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/points/point_set.hpp"
#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

struct CenteredPoints {
  // n x stride words. Within each group of 16 dimensions, lane t (0..3) of a fragment finds its four
  // words side by side at 4t: hi of dimensions (2t, 2t+1), hi of (2t+8, 2t+9), then lo of the same.
  DeviceBuffer<std::uint32_t> words;
  DeviceBuffer<float> norms;  // n squared norms of the translated rows, unscaled
  std::size_t n = 0;
  std::size_t stride = 0;  // a multiple of 16
  float max_norm = 0;      // the largest of `norms` (infinite when a norm overflows)
};

// The mean of up to 4096 evenly spaced points of a, and as many of b when given (any point near the
// middle serves; the error bound uses the translated norms themselves).
std::vector<float> reference_point(const PointSet32& a, const PointSet32* b);

// `sets` (on the device, as upload_points left them, `dims` real dimensions) minus `reference`,
// all with one scale, which `scale` receives.
std::vector<CenteredPoints> center_points(const std::vector<const DevicePoints*>& sets, std::size_t dims,
                                          const std::vector<float>& reference, float& scale);

}  // namespace simjoin::gpu
