#pragma once
#include "core/join/engine.hpp"

namespace simjoin {

// Boost.Geometry R-tree (packed bulk load) over the points of A; each query point searches its
// eps-box and refines with the distance. Boost.Geometry fixes the dimension at compile time, so every
// supported d is one instantiation (costly to compile); d <= kMaxDims (8) is supported, since R-trees
// lose their edge over a scan beyond about 8 dimensions.
class CpuRTreeEngine final : public Engine {
 public:
  static constexpr std::size_t kMaxDims = 8;
  std::string name() const override { return "cpu-rtree"; }
  std::string description() const override {
    return "Boost.Geometry R-tree, packed bulk load, eps-box queries refined by distance (d <= 8)";
  }
  Capabilities capabilities() const override;
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override;
};

}  // namespace simjoin
