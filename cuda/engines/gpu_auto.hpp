#pragma once
#include <memory>

#include "core/engines/choosing_engine.hpp"
#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

// gpu-auto: picks gpu-grid, gpu-kmeans or gpu-bruteforce from n, d and eps, on the H100 measurements
// of docs/benchmarks.md, and runs its own instance of it.
class GpuAutoEngine final : public ChoosingEngine {
 public:
  // Its engines run on `resources` (the registry's).
  explicit GpuAutoEngine(const std::shared_ptr<GpuResources>& resources);
  ~GpuAutoEngine() override;
  std::string name() const override { return "gpu-auto"; }
  std::string description() const override {
    return "Chooses gpu-grid, gpu-kmeans or gpu-bruteforce from n, d and eps";
  }
  Capabilities capabilities() const override;
  Availability availability() const override { return grid_->availability(); }
  using ChoosingEngine::choose;
  Choice choose(const JoinShape& shape) const override;

 private:
  std::unique_ptr<Engine> grid_, kmeans_, bruteforce_;
};

}  // namespace simjoin::gpu
