#pragma once
#include <memory>

#include "core/engine.hpp"

namespace simjoin {

// Picks a CPU engine from n, d and eps and delegates to its own instance of it; the run's notes say
// which engine ran and why.
class CpuAutoEngine final : public Engine {
 public:
  CpuAutoEngine();
  ~CpuAutoEngine() override;
  std::string name() const override { return "auto"; }
  std::string description() const override {
    return "Chooses cpu-nlj, cpu-grid or cpu-kmeans from n, d and eps";
  }
  Capabilities capabilities() const override { return {}; }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override;

  struct Choice {
    Engine* engine;
    std::string reason;
  };
  // The choice for these points and eps (file units).
  Choice choose(const JoinSources& sources, double eps) const;

 private:
  Choice choose(std::size_t n, std::size_t queries, bool self_join, std::size_t dims, double widest,
                double eps) const;

  std::unique_ptr<Engine> nlj_, grid_, kmeans_;
};

}  // namespace simjoin
