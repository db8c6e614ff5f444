#include "core/engines/cpu_rtree.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>

#include "core/base/parallel.hpp"
#include "core/numeric/numeric_rules.hpp"

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

// x - eps and x + eps rounded outwards to float.
float outward_low(float x, double eps) { return std::nextafter(float(double(x) - eps), -INFINITY); }
float outward_high(float x, double eps) { return std::nextafter(float(double(x) + eps), INFINITY); }

// The eps-box around p, rounded outwards to float so that no point within eps falls outside it.
template <std::size_t D, std::size_t... K>
Box<D> eps_box(const float* p, double eps, std::index_sequence<K...>) {
  Box<D> box;
  (bg::set<bg::min_corner, K>(box, outward_low(p[K], eps)), ...);
  (bg::set<bg::max_corner, K>(box, outward_high(p[K], eps)), ...);
  return box;
}

// A's points cut into slabs along the widest dimension, one packed tree each: a single bulk load
// cannot be interrupted, so the trees are built one after another with a cancel check between them.
constexpr std::size_t kSlabPoints = 1 << 15;

template <std::size_t D>
struct Slab {
  std::size_t dim = 0;
  float low = 0, high = 0;  // the slab's points' range in dimension dim
  bgi::rtree<Value<D>, bgi::rstar<16>> tree;
};

template <std::size_t D>
std::vector<Slab<D>> build_slabs(const PointSet32& a, RunControl& control) {
  if (a.empty()) return {};
  const Bounds bounds = compute_bounds(a);
  std::size_t dim = 0;
  for (std::size_t k = 1; k < D; ++k)
    if (double(bounds.high[k]) - bounds.low[k] > double(bounds.high[dim]) - bounds.low[dim]) dim = k;
  const std::size_t count = (a.size() + kSlabPoints - 1) / kSlabPoints;
  const double low = bounds.low[dim], extent = double(bounds.high[dim]) - low;
  std::vector<std::vector<Value<D>>> values(count);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a.point(i)[dim];
    const std::size_t s = extent > 0 ? std::min(count - 1, std::size_t((x - low) / extent * double(count))) : 0;
    values[s].emplace_back(make_point<D>(a.point(i), std::make_index_sequence<D>{}), std::uint32_t(i));
  }
  std::vector<Slab<D>> slabs;
  for (auto& slab_values : values) {
    control.throw_if_cancelled();
    if (slab_values.empty()) continue;
    const auto [min, max] = std::minmax_element(
        slab_values.begin(), slab_values.end(),
        [&](const auto& x, const auto& y) { return a.point(x.second)[dim] < a.point(y.second)[dim]; });
    Slab<D>& slab = slabs.emplace_back();
    slab.dim = dim;
    slab.low = a.point(min->second)[dim];
    slab.high = a.point(max->second)[dim];
    slab.tree = bgi::rtree<Value<D>, bgi::rstar<16>>(slab_values.begin(), slab_values.end());  // packed
    slab_values = {};
  }
  return slabs;
}

template <std::size_t D>
void join(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control, RunStats& stats) {
  const PointSet32& a = *inputs.a;
  const PointSet32& q = inputs.queries();
  const bool self = inputs.self_join();
  const auto dims = std::make_index_sequence<D>{};

  control.set_phase("build tree");
  std::vector<Slab<D>> slabs;
  {
    PhaseTimer timer(stats, "build tree");
    slabs = build_slabs<D>(a, control);
  }
  stats.extra_bytes = a.size() * sizeof(Value<D>) * 2;  // the values and about as much tree
  stats.notes.push_back(std::to_string(slabs.size()) + " packed trees over slabs of the widest dimension");

  PhaseTimer timer(stats, "join");
  control.set_phase("join");
  const ExactPairTest is_pair = inputs.pair_test();
  const double radius = inputs.search_radius;
  parallel_rows(
      q.size(), params.threads, control,
      [&](std::size_t row, PairBuffer& out) {
        const float* p = q.point(row);
        std::uint64_t compared = 0;
        const auto visit = [&](const Value<D>& value) {
          const std::uint32_t j = value.second;
          if (self && j <= row) return;  // a self-join reports each pair from its lower id
          ++compared;
          const float d2 = squared_distance(a.point(j), p, D);
          if (self ? is_pair(d2, std::uint32_t(row), j) : is_pair(d2, j, std::uint32_t(row))) {
            if (self)
              out.push(std::uint32_t(row), j);
            else
              out.push(j, std::uint32_t(row));
          }
        };
        const Box<D> box = eps_box<D>(p, radius, dims);
        for (const Slab<D>& slab : slabs)
          if (slab.low <= outward_high(p[slab.dim], radius) && outward_low(p[slab.dim], radius) <= slab.high)
            slab.tree.query(bgi::intersects(box), boost::make_function_output_iterator(visit));
        return compared;
      },
      sink, stats.compared_pairs);
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

RunResult CpuRTreeEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) {
  static constexpr auto table = join_table(std::make_index_sequence<kMaxDims>{});
  RunResult result;
  table[inputs.a->dims() - 1](inputs, params, sink, control, result.stats);
  return result;
}

}  // namespace simjoin
