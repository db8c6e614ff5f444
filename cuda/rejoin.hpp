#pragma once
// RE-JOIN (Korkmaz 2012, section 4.4) on the GPU: an epsilon self-join kept up to date while batches of
// points arrive. The first points get a KMEANS-JOIN; each later batch is assigned to the nearest
// centroids, the quality metric (the sum over partitions of the distance between the centroid and the
// mean of its members) is compared with a threshold, and above it Lloyd rounds run again over all
// points from the current centroids. Then only pairs that involve a new point are joined (new x old and
// new x new, over the replicated partitions) and added to the result so far, which therefore always
// equals a fresh self-join of all points. Nothing here exposes CUDA types.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/base/run_control.hpp"
#include "core/join/run_stats.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct RejoinBatch {
  std::size_t new_points = 0;
  std::uint64_t pairs_added = 0;
  std::uint64_t total_pairs = 0;
  double displacement = 0;  // the quality metric once the batch was assigned (0 for the first points)
  bool reclustered = false;
  RunStats stats;  // this step's phases, compared pairs, copies, k, device; pairs = pairs added
};

class RejoinSession {
 public:
  // Reclusters when the displacement exceeds `threshold` (in coordinate units); `seed` seeds k-means.
  explicit RejoinSession(double threshold, std::uint64_t seed = 1, int device = 0);
  ~RejoinSession();
  RejoinSession(const RejoinSession&) = delete;
  RejoinSession& operator=(const RejoinSession&) = delete;

  // KMEANS-JOIN of the first points (at least one); k = 0 chooses k from n as gpu-kmeans does.
  RejoinBatch initial(const PointSet& points, double eps, int k, RunControl* control = nullptr);
  // Adds the points, numbered after those already held, and the pairs they make.
  RejoinBatch update(const PointSet& new_points, RunControl* control = nullptr);

  // Every pair (i, j), i < j, of the points so far, in the order found.
  const std::vector<Pair>& pairs() const;
  std::size_t size() const;  // points so far

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace simjoin
