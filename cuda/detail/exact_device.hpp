#pragma once
// The file's float64 values on the GPU, for the exact pair test (core/numeric/exact_test.hpp) that every
// exact GPU kernel applies to the candidates its float32 distance leaves undecided.
#include "core/join/engine.hpp"
#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

struct DeviceExact {
  DeviceBuffer<double> a, b;  // b empty for a self-join (the test then reads a twice)
  ExactPairTest test;         // device pointers into a and b; pass it to kernels by value
};

// The row-major float64 values of `points` on the current GPU.
DeviceBuffer<double> upload_values(GpuResources& resources, const PointSet& points);

// inputs.exact_a and, for A join B, inputs.exact_b on the current GPU, with inputs.band.
DeviceExact upload_exact(GpuResources& resources, const JoinInputs& inputs);

}  // namespace simjoin::gpu
