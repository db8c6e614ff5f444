#pragma once
// gpu-grid: GPU-SJ of Gowanlock & Karsin 2018. An epsilon-grid of the non-empty cells is built on the
// GPU (points radix-sorted by their cells' integer coordinates, the distinct cells as B, their ranges
// as G, the order as A, per-dimension occupancy masks M); each query searches the adjacent non-empty
// cells by binary search in B, with unicomp comparing each pair once; results come back in
// overlapped batches (cuda/detail/pair_batches.hpp).
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuGridEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  std::string name() const override { return "gpu-grid"; }
  std::string description() const override;

 protected:
  bool splits_across_gpus() const override { return true; }
  void join(GpuRun& run) const override;
};

}  // namespace simjoin::gpu
