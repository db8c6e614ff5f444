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

namespace {
template <typename T>
double widest_extent(const BasicPointSet<T>& points) {
  if (points.empty()) return 0;
  const auto bounds = compute_bounds(points);
  double widest = 0;
  for (std::size_t k = 0; k < points.dims(); ++k)
    widest = std::max(widest, double(bounds.high[k]) - double(bounds.low[k]));
  return widest;
}
}  // namespace

CpuAutoEngine::Choice CpuAutoEngine::choose(const JoinSources& sources, double eps) const {
  const PointSet& queries = sources.b ? *sources.b : *sources.a;
  return choose(sources.a->size(), queries.size(), sources.self_join(), sources.a->dims(),
                widest_extent(*sources.a), eps);
}

CpuAutoEngine::Choice CpuAutoEngine::choose(std::size_t n, std::size_t queries, bool self_join,
                                            std::size_t dims, double widest, double eps) const {
  const double candidates = double(candidate_pairs(self_join, n, queries));
  if (candidates <= kSmallJoin)
    return {nlj_.get(), "small input (" + std::to_string(std::uint64_t(candidates)) +
                            " candidate pairs): a nested loop needs no index"};
  if (widest <= 2 * eps)
    return {nlj_.get(), "eps spans the data in every dimension: no index can prune"};
  if (dims <= kLowDims)
    return {grid_.get(), "low dimension (d <= " + std::to_string(kLowDims) + "): the epsilon-grid prunes best"};
  if (dims <= kMidDims)
    return {kmeans_.get(), "mid dimension (d <= " + std::to_string(kMidDims) +
                               "): k-means partitions prune where a grid cannot"};
  return {nlj_.get(), "high dimension (d > " + std::to_string(kMidDims) + "): a vectorised nested loop"};
}

RunResult CpuAutoEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                             RunControl& control) {
  // The frame only translates and scales, so its extent and search radius give the same choice.
  const Choice choice = choose(inputs.a->size(), inputs.queries().size(), inputs.self_join(), inputs.a->dims(),
                               widest_extent(*inputs.a), params.eps);
  RunResult result = choice.engine->run(inputs, params, sink, control);
  result.stats.notes.insert(result.stats.notes.begin(),
                            "auto chose " + choice.engine->name() + ": " + choice.reason);
  return result;
}

}  // namespace simjoin
