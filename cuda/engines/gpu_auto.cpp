#include "cuda/engines/gpu_auto.hpp"

#include "cuda/engines/gpu_bruteforce.hpp"
#include "cuda/engines/gpu_grid.hpp"
#include "cuda/engines/gpu_kmeans.hpp"

namespace simjoin::gpu {

namespace {
// From this dimension on, k-means partitions prune clustered data better than the grid's few indexed
// dimensions (W1 at d = 8, W5 at d = 32 and clustered 128-D unit vectors: 1.4 to 2.8 times faster,
// docs/benchmarks.md); below, the grid wins on every workload.
constexpr std::size_t kKMeansMinDims = 7;
}  // namespace

GpuAutoEngine::GpuAutoEngine(const std::shared_ptr<GpuResources>& resources)
    : grid_(std::make_unique<GpuGridEngine>(resources)),
      kmeans_(std::make_unique<GpuKMeansEngine>(resources, true)),
      bruteforce_(std::make_unique<GpuBruteForceEngine>(resources)) {}

GpuAutoEngine::~GpuAutoEngine() = default;

Capabilities GpuAutoEngine::capabilities() const {
  Capabilities caps;
  caps.gpu = true;
  caps.spread_matters = true;  // it may choose the brute force, or gpu-kmeans, which joins manifolds by it
  return caps;
}

GpuAutoEngine::Choice GpuAutoEngine::choose(const JoinShape& shape) const {
  const double candidates = shape.candidates();
  if (candidates <= kSmallJoinCandidates)
    return {bruteforce_.get(), "small input (" + std::to_string(std::uint64_t(candidates)) +
                                   " candidate pairs): one brute-force pass needs no index"};
  if (shape.widest <= 2 * shape.eps)
    return {bruteforce_.get(), "eps spans the data in every dimension: no index can prune"};
  if (shape.dims >= kKMeansMinDims)
    return {kmeans_.get(), std::to_string(shape.dims) + " dimensions (from " + std::to_string(kKMeansMinDims) +
                               "): k-means partitions prune best"};
  return {grid_.get(), "the epsilon-grid, over the dimensions its cost model picks, prunes best"};
}

}  // namespace simjoin::gpu
