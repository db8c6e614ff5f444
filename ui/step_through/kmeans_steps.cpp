// KMEANS-JOIN replayed step by step, with the parts cpu-kmeans runs (core/engines/cpu_kmeans.cpp):
// the same k-means call, bisector test, per-partition epsilon-grid join and duplicate rule.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/base/error.hpp"
#include "core/engines/grid_cell_search.hpp"
#include "core/engines/kmeans_placement.hpp"
#include "core/frame/join_frame.hpp"
#include "core/points/kmeans.hpp"
#include "ui/step_through/join_steps.hpp"
#include "ui/step_through/replay.hpp"

namespace simjoin::ui {

namespace {
// cpu-kmeans' k-means parameters, on one thread, stopping after at most `rounds` Lloyd rounds.
KMeansParams engine_kmeans(std::size_t k, std::uint64_t seed, int rounds) {
  return {k, seed, rounds, 1e-4, 1, std::max<std::size_t>(32768, 256 * k)};
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %%", 100 * fraction);
  return text;
}

// The rounds k-means makes, each as a k-means call stopped after that many rounds: the same
// seeds and arithmetic as the engine's single call, so the last round is the engine's result,
// which this returns (in frame coordinates).
KMeansResult add_rounds(StepThrough& run, const PointSet32& a, const JoinFrame& frame, std::uint64_t seed) {
  const std::size_t d = a.dims();
  const KMeansResult last = kmeans(a, engine_kmeans(run.k, seed, 25));
  const Bounds bounds = compute_bounds(a);
  double extent = 0;
  for (std::size_t t = 0; t < d; ++t) extent = std::max(extent, double(bounds.high[t]) - double(bounds.low[t]));
  std::vector<float> before;
  for (int r = 0; r <= last.iterations; ++r) {
    const KMeansResult now = r == last.iterations ? last : kmeans(a, engine_kmeans(run.k, seed, r));
    KMeansRound round;
    round.membership = now.membership;
    for (std::size_t c = 0; c < now.centroids.size(); ++c)
      round.centroids.push_back(frame.to_file_coordinate(now.centroids[c], c % d));
    for (std::size_t c = 0; r > 0 && c < run.k; ++c) {
      double shift = 0;
      for (std::size_t t = 0; t < d; ++t) {
        const double step = double(now.centroids[c * d + t]) - double(before[c * d + t]);
        shift += step * step;
      }
      round.moved = std::max(round.moved, extent > 0 ? std::sqrt(shift) / extent : 0.0);
    }
    before = now.centroids;
    JoinStep step;
    step.kind = StepKind::KMeansRound;
    step.state = run.rounds.size();
    if (r == 0) {
      step.text = "k-means++ seeds " + std::to_string(run.k) +
                  " centroids, each drawn with probability growing with the squared distance to those before; "
                  "every point joins its nearest centroid";
    } else {
      step.text = "Lloyd round " + std::to_string(r) + ": each centroid moves to the mean of its points (at most " +
                  percent(round.moved) + " of the data's extent) and each point joins its nearest centroid";
      if (r == last.iterations)
        step.text += round.moved <= 1e-4 ? "; no centroid moved more than 0.01 % of the extent, so Lloyd stops"
                                         : "; 25 rounds is the limit, so Lloyd stops";
    }
    run.rounds.push_back(std::move(round));
    run.steps.push_back(std::move(step));
  }
  return last;
}

// The partitions holding each point (own and copies), highest first.
std::vector<std::vector<std::uint32_t>> holders(const StepThrough& run) {
  std::vector<std::vector<std::uint32_t>> lists(run.points.size());
  for (std::size_t p = 0; p < lists.size(); ++p) lists[p].push_back(run.rounds.back().membership[p]);
  for (std::size_t r = 0; r < run.copy_point.size(); ++r) lists[run.copy_point[r]].push_back(run.copy_partition[r]);
  for (auto& list : lists) std::sort(list.begin(), list.end(), std::greater<>());
  return lists;
}

// The first (highest) partition of `mine` that `theirs` holds too.
std::uint32_t highest_shared(const std::vector<std::uint32_t>& mine, const std::vector<std::uint32_t>& theirs) {
  for (std::uint32_t c : mine)
    if (std::find(theirs.begin(), theirs.end(), c) != theirs.end()) return c;
  return UINT32_MAX;
}

// The copies partition c received, in the order they were made, appended to `points`.
void append_received(const StepThrough& run, std::uint32_t c, std::vector<std::uint32_t>& points) {
  for (std::size_t r = 0; r < run.copy_point.size(); ++r)
    if (run.copy_partition[r] == c) points.push_back(run.copy_point[r]);
}

// Every point is tested against every other partition's bisector, in point order as the engine does;
// one step per receiving partition.
void add_replication(StepThrough& run, const PointSet32& a, const std::vector<float>& centroids, double eps) {
  const std::size_t d = a.dims();
  const std::vector<std::uint32_t>& own = run.rounds.back().membership;
  for (std::uint32_t p = 0; p < a.size(); ++p)
    for (std::uint32_t j = 0; j < run.k; ++j)
      if (j != own[p] && in_bisector_band(a.point(p), &centroids[own[p] * d], &centroids[j * d], d, eps)) {
        run.copy_point.push_back(p);
        run.copy_partition.push_back(j);
      }
  StepCounters counters = run.steps.back().counters;
  for (std::uint32_t j = 0; j < run.k; ++j) {
    JoinStep step;
    step.kind = StepKind::Replication;
    step.state = j;
    append_received(run, j, step.focus);
    counters.copies += step.focus.size();
    step.counters = counters;
    step.text = "partition " + std::to_string(j) + " receives " + std::to_string(step.focus.size()) +
                " copies: the points of other partitions within eps of its bisectors (h <= eps)";
    run.steps.push_back(std::move(step));
  }
}

// Each partition's own points and copies joined by an epsilon-grid; a pair counts only in the
// highest partition holding both of its points, so none is reported twice.
void add_partition_joins(StepThrough& run, const JoinInputs& in, const JoinParams& params) {
  const auto lists = holders(run);
  const ExactPairTest is_pair = in.pair_test();
  StepCounters counters = run.steps.back().counters;
  for (std::uint32_t c = 0; c < run.k; ++c) {
    JoinStep step;
    step.kind = StepKind::PartitionJoin;
    step.state = c;
    for (std::uint32_t p = 0; p < run.points.size(); ++p)
      if (run.rounds.back().membership[p] == c) step.focus.push_back(p);
    const std::size_t own = step.focus.size();
    append_received(run, c, step.focus);
    const GridCellSearch search(in, params, &step.focus);
    const std::uint64_t pairs_before = counters.pairs;
    for (std::uint32_t cell = 0; cell < search.cells().cell_count(); ++cell)
      counters.distance_tests += search.search(cell, [&](std::uint32_t row_q, std::uint32_t row_a, float d2) {
        ++counters.candidates;
        const std::uint32_t p = step.focus[row_a], q = step.focus[row_q];
        if (is_pair(d2, p, q) && highest_shared(lists[p], lists[q]) == c) ++counters.pairs;
      });
    step.counters = counters;
    step.text = "partition " + std::to_string(c) + " joins its " + std::to_string(own) + " points and " +
                std::to_string(step.focus.size() - own) +
                " copies with an epsilon-grid: " + std::to_string(counters.pairs - pairs_before) +
                " new pairs (a pair counts in the highest partition holding both points)";
    run.steps.push_back(std::move(step));
  }
}
}  // namespace

StepThrough kmeans_join_steps(const PointSet& points, double eps, std::size_t k, std::uint64_t seed) {
  StepThrough run = sample_for_steps(points, eps, kKMeansStepSpread);
  if (k < 1 || k > run.points.size())
    fail(ErrorKind::Usage, "the step-through needs 1 <= k <= " + std::to_string(run.points.size()) +
                               " (got k = " + std::to_string(k) + ")");
  run.algorithm = "KMEANS-JOIN";
  run.engine = "cpu-kmeans";
  run.k = k;
  const JoinFrame frame(run.points, nullptr, run.eps);
  replay_in_frame(run.points, run.eps, [&](const JoinInputs& in, const JoinParams& params) {
    const KMeansResult fitted = add_rounds(run, *in.a, frame, seed);
    add_replication(run, *in.a, fitted.centroids, in.search_radius);
    add_partition_joins(run, in, params);
  });
  return run;
}

}  // namespace simjoin::ui
