#pragma once
// gpu-boehm: the index join of Böhm et al. 2009, section 5. A multi-level quantile directory over
// PCA-rotated data (cuda/detail/boehm_directory.hpp); the threads of a block, whose queries are neighbours in
// directory order, scan together the pages whose bounds come within eps of the block's bounding box.
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuBoehmEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  static constexpr int kLevels = 3, kFanout = 16;  // the paper's L and F
  std::string name() const override { return "gpu-boehm"; }
  std::string description() const override;

 protected:
  void join(GpuRun& run) const override;
};

}  // namespace simjoin::gpu
