#include "core/engines/cpu_auto.hpp"

#include <algorithm>

#include "core/engines/cpu_grid.hpp"
#include "core/engines/cpu_kmeans.hpp"
#include "core/engines/cpu_nlj.hpp"

namespace simjoin {

namespace {
// Below this many candidate pairs a nested loop finishes before an index pays off.
constexpr double kSmallJoin = 5e6;
// Up to this many dimensions the grid's 3^m cells prune well; above kMidDims partitions stop
// pruning too and the nested loop's vectorised scan wins.
constexpr std::size_t kLowDims = 8;
constexpr std::size_t kMidDims = 64;
}  // namespace

CpuAutoEngine::CpuAutoEngine()
    : nlj_(std::make_unique<CpuNestedLoopEngine>()),
      grid_(std::make_unique<CpuGridEngine>()),
      kmeans_(std::make_unique<CpuKMeansEngine>()) {}

CpuAutoEngine::~CpuAutoEngine() = default;

CpuAutoEngine::Choice CpuAutoEngine::choose(const JoinInputs& inputs, double eps) const {
  const PointSet& a = *inputs.a;
  const double candidates = double(candidate_pairs(inputs.self_join(), a.size(), inputs.queries().size()));
  if (candidates <= kSmallJoin)
    return {nlj_.get(), "small input (" + std::to_string(std::uint64_t(candidates)) +
                            " candidate pairs): a nested loop needs no index"};
  const Bounds bounds = compute_bounds(a);
  double widest = 0;
  for (std::size_t k = 0; k < a.dims(); ++k)
    widest = std::max(widest, double(bounds.high[k]) - double(bounds.low[k]));
  if (widest <= 2 * eps)
    return {nlj_.get(), "eps spans the data in every dimension: no index can prune"};
  if (a.dims() <= kLowDims)
    return {grid_.get(), "low dimension (d <= " + std::to_string(kLowDims) + "): the epsilon-grid prunes best"};
  if (a.dims() <= kMidDims)
    return {kmeans_.get(), "mid dimension (d <= " + std::to_string(kMidDims) +
                               "): k-means partitions prune where a grid cannot"};
  return {nlj_.get(), "high dimension (d > " + std::to_string(kMidDims) + "): a vectorised nested loop"};
}

RunResult CpuAutoEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                             RunControl& control) {
  const Choice choice = choose(inputs, params.eps);
  RunResult result = choice.engine->run(inputs, params, sink, control);
  result.stats.notes.insert(result.stats.notes.begin(),
                            "auto chose " + choice.engine->name() + ": " + choice.reason);
  return result;
}

}  // namespace simjoin
