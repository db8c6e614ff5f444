#include "core/engines/cpu_nlj.hpp"

#include <algorithm>
#include <vector>

#include "core/base/parallel.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

namespace {
// Rows of A handled together, so that each block of queries is reused from L1 by several rows.
constexpr std::size_t kRowsPerTask = 32;

// Points per block: the block's d columns take about 16 KiB.
std::size_t block_size(std::size_t d) {
  const std::size_t fit = (16384 / sizeof(float)) / d;
  return std::clamp<std::size_t>(fit / 16 * 16, 16, 1024);
}

// Column-major copy: column k holds coordinate k of every point.
std::vector<float> transpose(const PointSet32& points) {
  const std::size_t n = points.size(), d = points.dims();
  std::vector<float> columns(n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < d; ++k) columns[k * n + i] = points.point(i)[k];
  return columns;
}
}  // namespace

RunResult CpuNestedLoopEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                                   RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  const PointSet32& a = *inputs.a;
  const PointSet32& q = inputs.queries();
  const bool self = inputs.self_join();
  const std::size_t d = a.dims(), m = q.size();
  const ExactPairTest is_pair = inputs.pair_test();
  const std::size_t block = block_size(d);

  std::vector<float> columns;
  {
    PhaseTimer timer(stats, "transpose");
    control.set_phase("transpose");
    columns = transpose(q);
  }
  stats.extra_bytes = columns.size() * sizeof(float);
  stats.notes.push_back("block of " + std::to_string(block) + " points per inner loop");

  PhaseTimer timer(stats, "join");
  control.set_phase("join");
  const std::size_t tasks = (a.size() + kRowsPerTask - 1) / kRowsPerTask;
  parallel_rows(
      tasks, params.threads, control,
      [&](std::size_t task, PairBuffer& out) {
        const std::size_t row_begin = task * kRowsPerTask;
        const std::size_t row_end = std::min(a.size(), row_begin + kRowsPerTask);
        std::vector<float> acc(block);
        std::uint64_t compared = 0;
        // A self-join visits only j > i; the first useful block starts at row_begin + 1.
        for (std::size_t jb = self ? row_begin + 1 : 0; jb < m; jb += block) {
          control.throw_if_cancelled();
          const std::size_t jend = std::min(m, jb + block);
          for (std::size_t i = row_begin; i < row_end; ++i) {
            const std::size_t js = self ? std::max(jb, i + 1) : jb;
            if (js >= jend) continue;
            const std::size_t len = jend - js;
            const float* p = a.point(i);
            std::fill_n(acc.begin(), len, 0.0f);
            for (std::size_t k = 0; k < d; ++k) {
              const float pk = p[k];
              const float* column = columns.data() + k * m + js;
              for (std::size_t t = 0; t < len; ++t) {
                const float diff = pk - column[t];
                acc[t] += diff * diff;
              }
            }
            for (std::size_t t = 0; t < len; ++t)
              if (acc[t] <= is_pair.band.reject && is_pair(acc[t], std::uint32_t(i), std::uint32_t(js + t)))
                out.push(std::uint32_t(i), std::uint32_t(js + t));
            compared += len;
          }
        }
        return compared;
      },
      sink, stats.compared_pairs);
  return result;
}

void join_by_nested_loop(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunStats& stats,
                         RunControl& control) {
  CpuNestedLoopEngine nested_loop;
  const RunResult whole = nested_loop.run(inputs, params, sink, control);
  for (const PhaseTime& phase : whole.stats.phases) stats.add_phase(phase.name, phase.seconds);
  stats.compared_pairs += whole.stats.compared_pairs;
  stats.extra_bytes += whole.stats.extra_bytes;
  stats.notes.insert(stats.notes.end(), whole.stats.notes.begin(), whole.stats.notes.end());
}

}  // namespace simjoin
