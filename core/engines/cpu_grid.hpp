#pragma once
#include "core/engine.hpp"

namespace simjoin {

// Gowanlock & Karsin's epsilon-grid on the CPU: each query point searches the adjacent non-empty
// cells; with unicomp each pair of cells is searched from one side only. For high d only a few
// dimensions are indexed; the distance test always uses all of them.
class CpuGridEngine final : public Engine {
 public:
  std::string name() const override { return "cpu-grid"; }
  std::string description() const override {
    return "Epsilon-grid over up to 6 dimensions with unicomp (Gowanlock & Karsin), all cores";
  }
  Capabilities capabilities() const override { return {}; }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override;
};

}  // namespace simjoin
