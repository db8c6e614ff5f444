#include "core/engines/result_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/base/error.hpp"
#include "core/base/memory.hpp"
#include "core/engines/cpu_grid.hpp"
#include "core/run/run_engine.hpp"

namespace simjoin {

namespace {
// Up to 20,000 points per set, fewer in many dimensions, so that even eps beyond the diameter (every
// pair of the sample a candidate) stays a fraction of a second.
std::size_t sample_size(std::size_t dims) {
  return std::clamp<std::size_t>(std::size_t(std::sqrt(2e10 / double(dims))), 2000, 20000);
}
}  // namespace

double estimate_result_pairs(const JoinSources& sources, double eps, RunControl& control) {
  const PointSet& a = *sources.a;
  const std::size_t sample = sample_size(a.dims());
  const PointSet sample_a = sample_points(a, sample, 1);
  std::optional<PointSet> sample_b;
  if (sources.b) sample_b = sample_points(*sources.b, sample, 2);
  CpuGridEngine grid;
  CountSink count;
  JoinParams params;
  params.eps = eps;
  run_engine(grid, {&sample_a, sample_b ? &*sample_b : nullptr}, params, count, control);
  const bool self = sources.self_join();
  const double all = double(candidate_pairs(self, a.size(), self ? 0 : sources.b->size()));
  const double sampled = double(candidate_pairs(self, sample_a.size(), sample_b ? sample_b->size() : 0));
  return sampled > 0 ? double(count.count()) * all / sampled : 0.0;
}

void require_pairs_fit_in_memory(double pairs, const std::string& way_out) {
  // Pairs are 8 bytes; sorting and joining the list's blocks need about as much again at the end.
  const double needed = pairs * double(sizeof(Pair)) * 2;
  const double available = double(available_memory_bytes());
  if (needed <= available) return;
  fail(ErrorKind::OutOfMemory, "the result is expected to hold about " + std::to_string(std::llround(pairs)) +
                                   " pairs, which need " + format_bytes(needed) + " of host memory; " +
                                   format_bytes(available) + " is available. " + way_out);
}

}  // namespace simjoin
