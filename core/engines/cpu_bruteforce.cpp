#include "core/engines/cpu_bruteforce.hpp"

#include "core/base/parallel.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin {

Capabilities CpuBruteForceEngine::capabilities() const {
  Capabilities caps;
  caps.precision = Precision::Float64;
  return caps;
}

RunResult CpuBruteForceEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                                   RunControl& control) {
  RunResult result;
  PhaseTimer timer(result.stats, "join");
  control.set_phase("join");
  const PointSet& a = *inputs.exact_a;
  const PointSet& q = inputs.exact_queries();
  const std::size_t d = a.dims();
  const ExactBand oracle = oracle_band(params.eps);
  const bool self = inputs.self_join();
  std::uint64_t compared = 0;

  // Rows of A are the outer loop; for a self-join only j > i is visited.
  parallel_rows(
      a.size(), params.threads, control,
      [&](std::size_t i, PairBuffer& out) {
        const std::size_t begin = self ? i + 1 : 0;
        const double* p = a.point(i);
        for (std::size_t j = begin; j < q.size(); ++j)
          if (oracle.oracle_within(p, q.point(j), d)) out.push(std::uint32_t(i), std::uint32_t(j));
        return q.size() - begin;
      },
      sink, compared);
  result.stats.compared_pairs = compared;
  return result;
}

}  // namespace simjoin
