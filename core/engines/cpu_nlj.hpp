#pragma once
#include "core/join/engine.hpp"

namespace simjoin {

// Blocked nested loop in float32: the query set is transposed to columns and walked in blocks that
// stay in L1, so the inner loop over a block's points vectorises. Theta(n^2 d) whatever eps is: the
// right method for high d or large eps, and the baseline for every index.
class CpuNestedLoopEngine final : public Engine {
 public:
  std::string name() const override { return "cpu-nlj"; }
  std::string description() const override {
    return "Blocked float32 nested loop over all pairs, vectorised, all cores";
  }
  Capabilities capabilities() const override { return {}; }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override;
};

// The whole join by the nested loop, for an index engine that finds it cannot prune the data: the
// loop's phases, distance tests, memory and notes are added to the engine's `stats`.
void join_by_nested_loop(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunStats& stats,
                         RunControl& control);

}  // namespace simjoin
