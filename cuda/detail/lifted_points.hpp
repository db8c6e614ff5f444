#pragma once
// The lifted points of the principal-components filter (core/engines/component_filter.hpp) on the
// GPU: each frame row's projections onto the filter's basis and its residual's norm, as float32 rows of
// k + 1 coordinates (a multiple of 16), computed in float64 within the error core/numeric/lifted_bound.hpp
// bounds.
#include <cstddef>

#include "core/engines/component_filter.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

struct LiftedPoints {
  DevicePoints points;  // n x filter.lifted_dims()
  double max_norm = 0;  // the largest |x - centre| over the rows, as computed
};

// The lifted rows of `frame` (its first filter.dims coordinates a row).
LiftedPoints lift_points(const DevicePoints& frame, const ComponentFilter& filter);

}  // namespace simjoin::gpu
