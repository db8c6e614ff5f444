#pragma once
#include "core/join/engine.hpp"

namespace simjoin {

// KMEANS-JOIN (Korkmaz 2012, ch. 4): k-means partitions of A, epsilon-bound replication of points
// near the bisectors, an epsilon-grid join inside each partition (where the thesis uses a nested
// loop), and duplicate elimination by the highest common partition. Without replication
// (cpu-kmeans-approx) it is fast but may miss pairs.
// The placement of points among the partitions is core/engines/kmeans_placement.hpp.
// k = 0 chooses k from n; k > n is clamped to n (both are noted in the run's notes).
class CpuKMeansEngine final : public Engine {
 public:
  explicit CpuKMeansEngine(bool replicate = true) : replicate_(replicate) {}
  std::string name() const override { return replicate_ ? "cpu-kmeans" : "cpu-kmeans-approx"; }
  std::string description() const override;
  Capabilities capabilities() const override;
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override;

 private:
  bool replicate_;
};

}  // namespace simjoin
