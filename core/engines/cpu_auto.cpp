#include "core/engines/cpu_auto.hpp"

#include "core/engines/cpu_grid.hpp"
#include "core/engines/cpu_kmeans.hpp"
#include "core/engines/cpu_nlj.hpp"

namespace simjoin {

namespace {
// Up to this many dimensions the grid's 3^m cells prune well; above kMidDims partitions stop
// pruning too and the nested loop's vectorised scan wins.
constexpr std::size_t kLowDims = 8;
constexpr std::size_t kMidDims = 64;
}  // namespace

CpuAutoEngine::CpuAutoEngine(const ChoosingEngine* gpu_chooser)
    : nlj_(std::make_unique<CpuNestedLoopEngine>()),
      grid_(std::make_unique<CpuGridEngine>()),
      kmeans_(std::make_unique<CpuKMeansEngine>()),
      gpu_chooser_(gpu_chooser) {}

CpuAutoEngine::~CpuAutoEngine() = default;

CpuAutoEngine::Choice CpuAutoEngine::choose(const JoinShape& shape) const {
  if (gpu_present()) {
    Choice choice = gpu_chooser_->choose(shape);
    choice.reason = "a GPU is present; " + choice.reason;
    return choice;
  }
  const double candidates = shape.candidates();
  const double widest = shape.widest, eps = shape.eps;
  const std::size_t dims = shape.dims;
  if (candidates <= kSmallJoinCandidates)
    return {nlj_.get(), "small input (" + std::to_string(std::uint64_t(candidates)) +
                            " candidate pairs): a nested loop needs no index"};
  if (widest <= 2 * eps) return {nlj_.get(), "eps spans the data in every dimension: no index can prune"};
  if (dims <= kLowDims)
    return {grid_.get(), "low dimension (d <= " + std::to_string(kLowDims) + "): the epsilon-grid prunes best"};
  if (dims <= kMidDims)
    return {kmeans_.get(),
            "mid dimension (d <= " + std::to_string(kMidDims) + "): k-means partitions prune where a grid cannot"};
  return {nlj_.get(), "high dimension (d > " + std::to_string(kMidDims) + "): a vectorised nested loop"};
}

}  // namespace simjoin
