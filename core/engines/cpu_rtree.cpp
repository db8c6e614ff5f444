#include "core/engines/cpu_rtree.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>

#include "core/engines/distance.hpp"
#include "core/parallel.hpp"

namespace simjoin {

namespace {
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

template <std::size_t D>
using Point = bg::model::point<float, D, bg::cs::cartesian>;
template <std::size_t D>
using Box = bg::model::box<Point<D>>;
template <std::size_t D>
using Value = std::pair<Point<D>, std::uint32_t>;

template <std::size_t D, std::size_t... K>
Point<D> make_point(const float* p, std::index_sequence<K...>) {
  Point<D> point;  // Boost's point constructor takes at most 3 coordinates
  (bg::set<K>(point, p[K]), ...);
  return point;
}

// The eps-box around p, rounded outwards to float so that no point within eps falls outside it.
template <std::size_t D, std::size_t... K>
Box<D> eps_box(const float* p, double eps, std::index_sequence<K...>) {
  const auto low = [&](float x) { return std::nextafter(float(double(x) - eps), -INFINITY); };
  const auto high = [&](float x) { return std::nextafter(float(double(x) + eps), INFINITY); };
  Box<D> box;
  (bg::set<bg::min_corner, K>(box, low(p[K])), ...);
  (bg::set<bg::max_corner, K>(box, high(p[K])), ...);
  return box;
}

template <std::size_t D>
void join(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control,
          RunStats& stats) {
  const PointSet& a = *inputs.a;
  const PointSet& q = inputs.queries();
  const bool self = inputs.self_join();
  const auto dims = std::make_index_sequence<D>{};

  control.set_phase("build tree");
  std::vector<Value<D>> values;
  values.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) values.emplace_back(make_point<D>(a.point(i), dims), std::uint32_t(i));
  std::optional<bgi::rtree<Value<D>, bgi::rstar<16>>> tree;
  {
    PhaseTimer timer(stats, "build tree");
    tree.emplace(values.begin(), values.end());  // the range constructor packs the tree
  }
  stats.extra_bytes = values.size() * sizeof(Value<D>) * 2;  // the values and about as much tree
  values = {};

  PhaseTimer timer(stats, "join");
  control.set_phase("join");
  const float eps2 = squared_eps(params.eps);
  parallel_rows(q.size(), params.threads, control, [&](std::size_t row, PairBuffer& out) {
    const float* p = q.point(row);
    std::uint64_t compared = 0;
    const auto visit = [&](const Value<D>& value) {
      const std::uint32_t j = value.second;
      if (self && j <= row) return;  // a self-join reports each pair from its lower id
      ++compared;
      if (squared_distance(a.point(j), p, D) <= eps2) {
        if (self) out.push(std::uint32_t(row), j); else out.push(j, std::uint32_t(row));
      }
    };
    tree->query(bgi::intersects(eps_box<D>(p, params.eps, dims)),
                boost::make_function_output_iterator(visit));
    return compared;
  }, sink, stats.compared_pairs);
}

using JoinFn = void (*)(const JoinInputs&, const JoinParams&, PairSink&, RunControl&, RunStats&);

template <std::size_t... D>
constexpr std::array<JoinFn, sizeof...(D)> join_table(std::index_sequence<D...>) {
  return {&join<D + 1>...};
}
}  // namespace

Capabilities CpuRTreeEngine::capabilities() const {
  Capabilities caps;
  caps.max_dims = kMaxDims;
  return caps;
}

RunResult CpuRTreeEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                              RunControl& control) {
  static constexpr auto table = join_table(std::make_index_sequence<kMaxDims>{});
  RunResult result;
  table[inputs.a->dims() - 1](inputs, params, sink, control, result.stats);
  return result;
}

}  // namespace simjoin
