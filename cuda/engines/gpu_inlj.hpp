#pragma once
// gpu-inlj: the improved nested loop of Korkmaz 2012, section 4.2 (Algorithm 5). The points are
// padded to an odd number NB of chunks of 128 points. Block b keeps its chunk in the first half of
// shared memory, compares it with itself (j > i), then loads chunk (b + s) mod NB for s = 1 ... (NB-1)/2
// into the second half and compares all against all: with NB odd every pair of chunks meets once.
// (The thesis prints the chunk index of step s with a typo; (b + s) mod NB is the intended one.)
#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuInljEngine final : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  static constexpr std::size_t kMaxDims = 200;  // two chunks of 128 rows must fit in shared memory
  std::string name() const override { return "gpu-inlj"; }
  std::string description() const override {
    return "GPU improved nested loop (Korkmaz 2012): an odd number of blocks rotating chunks "
           "through shared memory, each pair of blocks met once";
  }
  Capabilities capabilities() const override;

 protected:
  void join(GpuRun& run) const override;
};

}  // namespace simjoin::gpu
