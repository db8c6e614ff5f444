#include "core/engines/choosing_engine.hpp"

#include <algorithm>

namespace simjoin {

namespace {
// The choice asks only whether A's widest extent exceeds 2 eps. The first rows usually answer it,
// which spares a pass over every point (milliseconds at 200 k x 128).
constexpr std::size_t kRowsTriedFirst = 4096;

template <typename T>
double widest_of(const BasicBounds<T>& bounds) {
  double widest = 0;
  for (std::size_t k = 0; k < bounds.low.size(); ++k)
    widest = std::max(widest, double(bounds.high[k]) - double(bounds.low[k]));
  return widest;
}

// A's widest extent, or, once the first rows already span more than 2 eps, theirs.
template <typename T>
double widest_extent(const BasicPointSet<T>& points, double eps) {
  const double widest_first = widest_of(compute_bounds(points, kRowsTriedFirst));
  if (widest_first > 2 * eps || points.size() <= kRowsTriedFirst) return widest_first;
  return widest_of(compute_bounds(points));
}

template <typename T>
JoinShape shape_of(const BasicPointSet<T>& a, const BasicPointSet<T>& queries, bool self_join, double eps) {
  return {a.size(), queries.size(), a.dims(), self_join, widest_extent(a, eps), eps};
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
