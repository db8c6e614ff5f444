#pragma once
// gpu-nlj: the GPU nested loop of Boehm et al. 2009, section 4: one thread per query point; the points
// are staged through shared memory tile by tile; for a self-join the inner loop starts after the
// thread's own index.
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuNljEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  std::string name() const override { return "gpu-nlj"; }
  std::string description() const override {
    return "GPU nested loop (Boehm 2009): a thread per point, points staged through shared memory";
  }

 protected:
  void join(GpuRun& run) const override;
};

}  // namespace simjoin::gpu
