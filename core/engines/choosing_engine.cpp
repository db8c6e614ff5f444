#include "core/engines/choosing_engine.hpp"

#include <algorithm>

namespace simjoin {

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

template <typename T>
JoinShape shape_of(const BasicPointSet<T>& a, const BasicPointSet<T>& queries, bool self_join, double eps) {
  return {a.size(), queries.size(), a.dims(), self_join, widest_extent(a), eps};
}
}  // namespace

JoinShape join_shape(const JoinSources& sources, double eps) {
  return shape_of(*sources.a, sources.b ? *sources.b : *sources.a, sources.self_join(), eps);
}

JoinShape join_shape(const JoinInputs& inputs, double eps) {
  return shape_of(*inputs.a, inputs.queries(), inputs.self_join(), eps);
}

RunResult ChoosingEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) {
  const Choice choice = choose(join_shape(inputs, inputs.search_radius));
  RunResult result = choice.engine->run(inputs, params, sink, control);
  result.stats.notes.insert(result.stats.notes.begin(),
                            name() + " chose " + choice.engine->name() + ": " + choice.reason);
  return result;
}

}  // namespace simjoin
