#pragma once
// gpu-bruteforce: every pair, as fast as the chip allows. A persistent grid walks tiles of 128 x 128
// pairs (only the upper triangle of tiles for a self-join). From 5 dimensions on, the distance tests
// run on tensor cores in the norm form (norm_form_tile.cuh) with every candidate re-checked in the
// float32 difference form; below that, or where the points' norms would make that form's rounding
// band too wide, on CUDA cores in the difference form (difference_tile.cuh). Either way the exact
// test (core/numeric/exact_test.hpp) makes the final decision. pair_output.cuh does the
// warp-aggregated output.
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuBruteForceEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  std::string name() const override { return "gpu-bruteforce"; }
  std::string description() const override {
    return "GPU brute force over all pairs: tensor-core norm form with an exact re-check (d >= 5), "
           "register-tiled float32 otherwise; triangular tile schedule on a persistent grid";
  }
  Capabilities capabilities() const override;

 protected:
  void join(GpuRun& run) const override;
};

// From this many dimensions on the distance tests run on tensor cores (gpu_bruteforce.cu says why).
inline constexpr std::size_t kTensorMinDims = 5;

// The brute force's join of the run's points, uploaded with rows padded to a multiple of 4 floats:
// also gpu-kmeans' join where its partitions cannot prune.
void join_all_pairs(GpuRun& run, const DeviceInputs& device);

}  // namespace simjoin::gpu
