#include "cuda/engines/gpu_auto.hpp"

#include "cuda/engines/gpu_bruteforce.hpp"
#include "cuda/engines/gpu_grid.hpp"
#include "cuda/engines/gpu_kmeans.hpp"

namespace simjoin::gpu {

namespace {
// Between these dimensions k-means partitions prune clustered data better than the grid's few
// indexed dimensions (W1 at d = 8 and W5 at d = 32: 1.6 and 2.8 times faster); below, the grid wins
// on every workload, and above (128-D clustered unit vectors) the grid's cost model still finds
// dimensions worth indexing while k-means replicates too much.
constexpr std::size_t kFirstMidDims = 7;
constexpr std::size_t kLastMidDims = 64;
}  // namespace

GpuAutoEngine::GpuAutoEngine()
    : grid_(std::make_unique<GpuGridEngine>()),
      kmeans_(std::make_unique<GpuKMeansEngine>(true)),
      bruteforce_(std::make_unique<GpuBruteForceEngine>()) {}

GpuAutoEngine::~GpuAutoEngine() = default;

Capabilities GpuAutoEngine::capabilities() const {
  Capabilities caps;
  caps.gpu = true;
  return caps;
}

GpuAutoEngine::Choice GpuAutoEngine::choose(const JoinShape& shape) const {
  const double candidates = shape.candidates();
  if (candidates <= kSmallJoinCandidates)
    return {bruteforce_.get(), "small input (" + std::to_string(std::uint64_t(candidates)) +
                                   " candidate pairs): one brute-force pass needs no index"};
  if (shape.widest <= 2 * shape.eps)
    return {bruteforce_.get(), "eps spans the data in every dimension: no index can prune"};
  if (shape.dims >= kFirstMidDims && shape.dims <= kLastMidDims)
    return {kmeans_.get(), "mid dimension (" + std::to_string(kFirstMidDims) + " <= d <= " +
                               std::to_string(kLastMidDims) + "): k-means partitions prune best"};
  return {grid_.get(), "the epsilon-grid, over the dimensions its cost model picks, prunes best"};
}

}  // namespace simjoin::gpu
