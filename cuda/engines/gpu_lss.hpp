#pragma once
// gpu-lss: Lieberman, Sankaranarayanan & Samet 2008. d + 1 Z-order lists of the indexed set, list j
// shifted by j/(d + 1) of the extent in every coordinate; each query takes the list in which its
// eps-cube spans the fewest points and tests the points of that interval. The self-join searches the
// full cube and keeps i < j (the paper's half-cube shortcut can lose pairs when the two points of a
// pair choose different lists).
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuLssEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  std::string name() const override { return "gpu-lss"; }
  std::string description() const override;

 protected:
  void join(GpuRun& run) const override;
};

}  // namespace simjoin::gpu
