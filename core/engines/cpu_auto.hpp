#pragma once
#include <memory>

#include "core/engines/choosing_engine.hpp"

namespace simjoin {

// `auto`: where a GPU chooser is attached and its GPU is available, its choice; otherwise a CPU engine
// from n, d and eps, run on its own instance.
class CpuAutoEngine final : public ChoosingEngine {
 public:
  CpuAutoEngine();
  ~CpuAutoEngine() override;
  std::string name() const override { return "auto"; }
  std::string description() const override {
    return "Chooses a GPU engine where a GPU is present (as gpu-auto), else cpu-nlj, cpu-grid or "
           "cpu-kmeans, from n, d and eps";
  }
  Capabilities capabilities() const override { return {}; }
  using ChoosingEngine::choose;
  Choice choose(const JoinShape& shape) const override;
  // Called by the GPU engines' registration: `auto` then prefers gpu-auto's choice.
  void prefer(const ChoosingEngine* gpu_chooser) { gpu_chooser_ = gpu_chooser; }

 private:
  std::unique_ptr<Engine> nlj_, grid_, kmeans_;
  const ChoosingEngine* gpu_chooser_ = nullptr;
};

}  // namespace simjoin
