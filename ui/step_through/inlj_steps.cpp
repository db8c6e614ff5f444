// GPU-INLJ replayed round by round (Korkmaz 2012, sec. 4.2, Algorithm 5, as cuda/engines/gpu_inlj.cu runs it): in
// round 0 every block compares its own chunk with itself; in round s block b loads chunk (b + s) mod
// chunks into shared memory and compares all against all. With an odd number of chunks the rounds
// 1 ... (chunks - 1) / 2 meet every pair of chunks exactly once, so the counts equal the nested loop's.
#include <algorithm>
#include <string>

#include "core/numeric/numeric_rules.hpp"
#include "ui/format/count_text.hpp"
#include "ui/step_through/join_steps.hpp"
#include "ui/step_through/replay.hpp"

namespace simjoin::ui {

namespace {
constexpr std::size_t kGpuChunkPoints = 128;  // gpu-inlj's threads per block
constexpr std::size_t kFewestChunks = 5;

std::size_t teaching_chunk(std::size_t n) {
  if (n >= kFewestChunks * kGpuChunkPoints) return kGpuChunkPoints;
  return std::max<std::size_t>(2, (n + 6) / 7);  // about seven chunks
}
}  // namespace

StepThrough inlj_steps(const PointSet& points, double eps) {
  StepThrough run = sample_for_steps(points, eps, kGridStepSpread);
  run.algorithm = "GPU-INLJ";
  run.engine = "cpu-nlj";
  const std::size_t n = run.points.size();
  const std::size_t chunk = teaching_chunk(n);
  run.chunk_points = chunk;
  run.chunks = std::max<std::size_t>(1, (n + chunk - 1) / chunk) | 1;  // odd: padded with an empty chunk
  run.notes.push_back("chunks of " + std::to_string(chunk) + " points" +
                      (chunk == kGpuChunkPoints ? " (gpu-inlj's blocks of 128 threads)"
                                                : " here (gpu-inlj's blocks hold 128) so that the rotation shows") +
                      ", " + std::to_string(run.chunks) + " chunks");
  replay_in_frame(run.points, run.eps, [&](const JoinInputs& in, const JoinParams&) {
    const PointSet32& a = *in.a;
    const ExactPairTest is_pair = in.pair_test();
    StepCounters counters;
    const auto test = [&](std::size_t i, std::size_t j) {
      ++counters.distance_tests;
      const float d2 = squared_distance(a.point(i), a.point(j), a.dims());
      if (d2 > is_pair.band.reject) return;
      ++counters.candidates;
      counters.pairs += is_pair(d2, std::uint32_t(std::min(i, j)), std::uint32_t(std::max(i, j)));
    };
    const auto first = [&](std::size_t c) { return std::min(n, c * chunk); };
    const auto last = [&](std::size_t c) { return std::min(n, (c + 1) * chunk); };
    for (std::size_t round = 0; round <= (run.chunks - 1) / 2; ++round) {
      JoinStep step;
      step.kind = StepKind::BlockRound;
      step.state = round;
      const StepCounters before = counters;
      for (std::size_t b = 0; b < run.chunks; ++b) {
        const std::size_t c = (b + round) % run.chunks;
        for (std::size_t i = first(b); i < last(b); ++i)
          for (std::size_t j = round == 0 ? i + 1 : first(c); j < last(c); ++j) test(i, j);
      }
      step.counters = counters;
      const std::string tests = count_text(counters.distance_tests - before.distance_tests) + " distance tests, " +
                                count_text(counters.pairs - before.pairs) + " new pairs";
      step.text = round == 0
                      ? "round 0: each of the " + std::to_string(run.chunks) +
                            " blocks compares its own chunk with itself (j > i): " + tests
                      : "round " + std::to_string(round) + ": block b loads chunk (b + " + std::to_string(round) +
                            ") mod " + std::to_string(run.chunks) + " into shared memory, all against all: " + tests;
      run.steps.push_back(std::move(step));
    }
  });
  return run;
}

}  // namespace simjoin::ui
