#include "core/engines/cpu_grid.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/base/parallel.hpp"
#include "core/engines/cpu_nlj.hpp"
#include "core/engines/detail/grid_cost.hpp"
#include "core/engines/detail/grid_join.hpp"

namespace simjoin {

namespace {
// Whether the grid's cost model expects it to prune; where it does not, a note with the numbers.
bool grid_prunes(const GridJoin& join, const JoinInputs& inputs, RunStats& stats) {
  const double share = join.grid().tested_share();
  const double whole = double(candidate_pairs(inputs.self_join(), inputs.a->size(), inputs.queries().size()));
  stats.estimated_tests = std::uint64_t(share * whole);
  if (share <= kGridCannotPruneShare) return true;
  char text[320];
  std::snprintf(text, sizeof text,
                "the grid's cost model estimates %.3g distance tests, %.0f%% of the whole set's %.3g pairs (above "
                "%.0f%%): the epsilon-grid cannot prune this data at this eps, so the whole set was joined by the "
                "nested loop (cpu-nlj)",
                share * whole, 100 * share, whole, 100 * kGridCannotPruneShare);
  stats.notes.push_back(text);
  return false;
}

}  // namespace

RunResult CpuGridEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  const bool self = inputs.self_join();
  const bool unicomp = self && params.unicomp;

  control.set_phase("build grid");
  std::optional<GridJoin> join;
  std::vector<GridTask> tasks;
  {
    PhaseTimer timer(stats, "build grid");
    join.emplace(PointRows(*inputs.a), PointRows(inputs.queries()), self, inputs, params, &control);
    tasks = join->tasks();
  }
  stats.notes.push_back(join->grid().choice());
  stats.extra_bytes = join->memory_bytes() + tasks.size() * sizeof(GridTask);
  if (!grid_prunes(*join, inputs, stats)) {
    join_by_nested_loop(inputs, params, sink, stats, control);
  } else {
    if (self && !params.unicomp) stats.notes.push_back("unicomp off: every pair is tested from both sides");
    PhaseTimer timer(stats, "join");
    control.set_phase("join");
    // Tasks run in cell order, which keeps the neighbour cells of successive tasks in cache.
    const ExactPairTest is_pair = inputs.pair_test();
    parallel_rows(
        tasks.size(), params.threads, control,
        [&](std::size_t t, PairBuffer& out) {
          return join->run(tasks[t], [&](std::uint32_t q, std::uint32_t p, float d2) {
            if (!is_pair(d2, p, q)) return;
            if (!self)
              out.push(p, q);
            else if (unicomp)
              out.push(std::min(p, q), std::max(p, q));
            else if (q < p)
              out.push(q, p);
          });
        },
        sink, stats.compared_pairs);
  }

  result.grid = join->take_structure();
  result.grid->unicomp = unicomp;
  return result;
}

}  // namespace simjoin
