#pragma once
#include "core/join/engine.hpp"

namespace simjoin {

// The oracle: exact float64 brute force over all pairs, all cores. Every other engine is tested
// against it.
class CpuBruteForceEngine final : public Engine {
 public:
  std::string name() const override { return "cpu-bruteforce"; }
  std::string description() const override { return "Exact float64 brute force over all pairs (the reference oracle)"; }
  Capabilities capabilities() const override;
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override;
};

}  // namespace simjoin
