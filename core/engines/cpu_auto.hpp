#pragma once
#include <memory>

#include "core/engines/choosing_engine.hpp"

namespace simjoin {

// `auto`: where it is given a GPU chooser and that GPU is available, its choice; otherwise a CPU engine
// from n, d and eps, run on its own instance.
class CpuAutoEngine final : public ChoosingEngine {
 public:
  // `gpu_chooser`: gpu-auto where the GPU engines are built (it must outlive this engine), else null.
  explicit CpuAutoEngine(const ChoosingEngine* gpu_chooser = nullptr);
  ~CpuAutoEngine() override;
  std::string name() const override { return "auto"; }
  std::string description() const override {
    return "Chooses a GPU engine where a GPU is present (as gpu-auto), else cpu-nlj, cpu-grid or "
           "cpu-kmeans, from n, d and eps";
  }
  Capabilities capabilities() const override {
    Capabilities caps;
    // It may choose the GPU's engines, where a GPU is there to run them.
    caps.spread_matters = gpu_present() && gpu_chooser_->capabilities().spread_matters;
    return caps;
  }
  using ChoosingEngine::choose;
  Choice choose(const JoinShape& shape) const override;

 private:
  // Whether it was given a GPU chooser and that GPU is available: then the choice is the chooser's.
  bool gpu_present() const { return gpu_chooser_ && gpu_chooser_->availability().available; }

  std::unique_ptr<Engine> nlj_, grid_, kmeans_;
  const ChoosingEngine* gpu_chooser_;
};

}  // namespace simjoin
