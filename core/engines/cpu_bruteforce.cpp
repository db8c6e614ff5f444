#include "core/engines/cpu_bruteforce.hpp"




#include "core/parallel.hpp"

namespace simjoin {

namespace {
double squared_distance64(const float* p, const float* q, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const double diff = double(p[k]) - double(q[k]);
    sum += diff * diff;
  }
  return sum;
}
}  // namespace

Capabilities CpuBruteForceEngine::capabilities() const {
  Capabilities caps;
  caps.precision = "float64";
  return caps;
}

RunResult CpuBruteForceEngine::run(const JoinInputs& inputs, const JoinParams& params,
                                   PairSink& sink, RunControl& control) {
  RunResult result;
  PhaseTimer timer(result.stats, "join");
  control.set_phase("join");
  const PointSet& a = *inputs.a;
  const PointSet& q = inputs.queries();
  const std::size_t d = a.dims();
  const double eps2 = params.eps * params.eps;
  const bool self = inputs.self_join();
  std::uint64_t compared = 0;

  // Rows of A are the outer loop; for a self-join only j > i is visited.
  parallel_rows(a.size(), params.threads, control, [&](std::size_t i, PairBuffer& out) {
    const std::size_t begin = self ? i + 1 : 0;
    const float* p = a.point(i);
    for (std::size_t j = begin; j < q.size(); ++j)
      if (squared_distance64(p, q.point(j), d) <= eps2) out.push(std::uint32_t(i), std::uint32_t(j));
    return q.size() - begin;
  }, sink, compared);
  result.stats.compared_pairs = compared;
  return result;
}

}  // namespace simjoin
