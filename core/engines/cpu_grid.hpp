#pragma once
#include "core/join/engine.hpp"

namespace simjoin {

// Gowanlock & Karsin's epsilon-grid on the CPU: each query cell searches the adjacent non-empty
// cells; with unicomp each pair of cells is searched from one side only. Only as many dimensions
// are indexed as a cost model finds worth it; the distance test always uses all of them.
class CpuGridEngine final : public Engine {
 public:
  std::string name() const override { return "cpu-grid"; }
  std::string description() const override {
    return "Epsilon-grid with unicomp (Gowanlock & Karsin) over up to 8 dimensions, as many as a "
           "cost model picks; all cores";
  }
  Capabilities capabilities() const override { return {}; }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override;
};

}  // namespace simjoin
