#pragma once
#include <cstdint>
#include <vector>

#include "core/join/engine.hpp"

namespace simjoin {

// KMEANS-JOIN (Korkmaz 2012, ch. 4): k-means partitions of A, epsilon-bound replication of points
// near the bisectors, an epsilon-grid join inside each partition (where the thesis uses a nested
// loop), and duplicate elimination by the highest common partition. Without replication
// (cpu-kmeans-approx) it is fast but may miss pairs.
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

// The replication test: should point s, a member of partition i (centroid ci), be copied into
// partition j (centroid cj)? Evaluated in float64 with a margin, so it may say yes to a point
// within rounding of the band, never no to a point inside it.
bool in_bisector_band(const float* s, const float* ci, const float* cj, std::size_t d, double eps);

// Own partition and copies of every point, in point order.
struct Placement {
  std::vector<std::uint32_t> own;
  std::vector<std::uint32_t> copy_point, copy_partition;
};

// KMEANS-JOIN's placement of points (float32 frame coordinates) among the partitions of `centroids`
// (k x d, same frame): each point's own partition (own[p], or its nearest centroid where own is null)
// and, with `replicate`, every other partition whose bisector band of width eps (the frame's search
// radius) holds it. simjoin.distributed plans its partitions with this same function.
Placement place_points(const PointSet32& points, const std::vector<std::uint32_t>* own,
                       const std::vector<float>& centroids, double eps, bool replicate, int threads,
                       RunControl& control);

}  // namespace simjoin
