#pragma once
// gpu-grid: GPU-SJ of Gowanlock & Karsin 2018. An epsilon-grid of the non-empty cells is built on the
// GPU (points radix-sorted by their cells' integer coordinates, the distinct cells as B, their ranges
// as G, the order as A, per-dimension occupancy masks M); each query searches the adjacent non-empty
// cells by binary search in B, with unicomp comparing each pair once; results come back in
// overlapped batches (cuda/index_batches.hpp).
#include "cuda/gpu_engine_base.hpp"
#include "cuda/index_batches.hpp"

namespace simjoin::gpu {

class GpuGridEngine final : public GpuEngine {
 public:
  std::string name() const override { return "gpu-grid"; }
  std::string description() const override;
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override;

 private:
  ResultBatchers batchers_;  // per GPU
};

}  // namespace simjoin::gpu
