#include "core/engines/cpu_grid.hpp"

#include <algorithm>
#include <optional>

#include "core/engines/distance.hpp"
#include "core/engines/epsilon_grid.hpp"
#include "core/parallel.hpp"

namespace simjoin {

namespace {
// The 3^m neighbour offsets, the zero offset first, each with its last non-zero dimension (-1 for
// the zero offset), which decides whether unicomp searches it.
struct Offsets {
  std::size_t m = 0;
  std::vector<std::int8_t> values;  // count x m
  std::vector<int> last_dim;
  std::size_t count() const { return last_dim.size(); }
  const std::int8_t* offset(std::size_t o) const { return values.data() + o * m; }
};

Offsets neighbour_offsets(std::size_t m) {
  Offsets offsets;
  offsets.m = m;
  std::size_t total = 1;
  for (std::size_t s = 0; s < m; ++s) total *= 3;
  for (std::size_t code = 0; code < total; ++code) {
    // Base-3 digits 0, 1, 2 stand for offsets 0, -1, +1, so code 0 is the zero offset.
    std::size_t rest = code;
    int last = -1;
    for (std::size_t s = 0; s < m; ++s) {
      const std::size_t digit = rest % 3;
      rest /= 3;
      offsets.values.push_back(std::int8_t(digit == 0 ? 0 : digit == 1 ? -1 : 1));
      if (digit != 0) last = int(s);
    }
    offsets.last_dim.push_back(last);
  }
  return offsets;
}
}  // namespace

RunResult CpuGridEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                             RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  const PointSet& a = *inputs.a;
  const PointSet& q = inputs.queries();
  const bool self = inputs.self_join();
  const bool unicomp = self && params.unicomp;
  const std::size_t d = a.dims();
  const float eps2 = squared_eps(params.eps);

  control.set_phase("build grid");
  std::optional<EpsilonGrid> built;
  {
    PhaseTimer timer(stats, "build grid");
    built.emplace(a, params.eps, stats.notes);
  }
  const EpsilonGrid& grid = *built;
  const GridStructure& cells = grid.structure();
  const std::size_t m = grid.indexed();
  const Offsets offsets = neighbour_offsets(m);
  stats.extra_bytes = grid.memory_bytes();
  if (self && !params.unicomp) stats.notes.push_back("unicomp off: every pair is tested from both sides");

  PhaseTimer timer(stats, "join");
  control.set_phase("join");
  // A self-join walks A in cell order, which keeps the neighbour cells of successive rows in cache.
  parallel_rows(q.size(), params.threads, control, [&](std::size_t row, PairBuffer& out) {
    const std::uint32_t qi = self ? cells.point_order[row] : std::uint32_t(row);
    const float* p = q.point(qi);
    constexpr std::size_t kMax = EpsilonGrid::kMaxIndexed;
    std::int64_t coords[kMax], neighbour[kMax];
    bool ok[kMax][3];
    for (std::size_t s = 0; s < m; ++s) {
      coords[s] = grid.coordinate(p, s);
      for (int o = -1; o <= 1; ++o) ok[s][o + 1] = grid.occupied(s, coords[s] + o);
    }
    std::uint64_t compared = 0;
    const auto compare_cell = [&](std::size_t begin, std::size_t end) {
      for (std::size_t t = begin; t < end; ++t) {
        const std::uint32_t j = cells.point_order[t];
        if (self && j == qi) continue;
        ++compared;
        if (squared_distance(a.point(j), p, d) > eps2) continue;
        if (!self)
          out.push(j, qi);
        else if (unicomp || qi < j)
          out.push(std::min(qi, j), std::max(qi, j));
      }
    };
    for (std::size_t o = 0; o < offsets.count(); ++o) {
      const int last = offsets.last_dim[o];
      if (unicomp) {
        // Own cell: only the points after this one in cell order. Neighbours: unicomp's parity rule.
        if (last < 0) {
          const std::int64_t own = grid.find(grid.linear_id(coords));
          compare_cell(row + 1, cells.cell_end[own]);
          continue;
        }
        if ((coords[last] & 1) == 0) continue;
      }
      const std::int8_t* delta = offsets.offset(o);
      bool present = true;
      for (std::size_t s = 0; s < m && present; ++s) {
        present = ok[s][delta[s] + 1];
        neighbour[s] = coords[s] + delta[s];
      }
      if (!present) continue;
      const std::int64_t cell = grid.find(grid.linear_id(neighbour));
      if (cell >= 0) compare_cell(cells.cell_begin[cell], cells.cell_end[cell]);
    }
    return compared;
  }, sink, stats.compared_pairs);

  result.grid = built->take_structure();
  result.grid->unicomp = unicomp;
  return result;
}

}  // namespace simjoin
