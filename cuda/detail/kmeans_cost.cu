#include "cuda/detail/kmeans_cost.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "cuda/detail/kmeans_cluster.hpp"
#include "cuda/detail/kmeans_join.hpp"
#include "cuda/detail/kmeans_partition.hpp"

namespace simjoin::gpu {

namespace {
// The rates of one NVIDIA H200, `simjoin bench`, medians of 3 (docs/benchmarks.md, "gpu-kmeans: the
// formula's k, and a screen for data that cannot prune"). A compared pair of the partition join takes kPairSeconds +
// kPairSecondsPerDim d: 8e10 pairs a second at d 128 (1 M x 128 unit vectors in 10,000 clusters, eps 0.06: 9.27e9 pairs
// in 113 ms at k 250, 2.59e10 in 303 ms at k 128) and 7.5e11 at d 8 (W1: 1.7e10 pairs in 22.7 ms, on an H100).
constexpr double kPairSeconds = 5.9e-13, kPairSecondsPerDim = 9.3e-14;
// A centre costs kSeedingSeconds of k-means++ seeding, whose rounds are launch-bound (the same set at
// eps 0.09: 11.4 ms at k 250, 41.2 at k 1024), and kFittingSeconds of Lloyd rounds and band tests for
// every kFittingCoordinates coordinates (n d) of the set (k-means 27.9 -> 46.4 ms, replication 19.8 ->
// 38.1 ms from k 250 to k 1024 there).
constexpr double kSeedingSeconds = 4e-5, kFittingSeconds = 4.75e-5, kFittingCoordinates = 1.28e8;
// A copy at d 128 (its float64 band test, its list entry, its gathered row), in proportion to d: on the
// 16-dimensional manifold in 1 M x 128 ("Data without clusters"), k 16 -> 4000 added 1.79e9 copies and
// 4.47 s, 0.35 s of it the centres' own work.
constexpr double kCopySeconds128 = 2.3e-9;
// A candidate that compares this many times the fewest pairs of a smaller k ends the search: past the
// clusters' own scale more partitions only add copies.
constexpr double kComparedGrowth = 1.25;
constexpr std::size_t kFirstK = 8, kLastK = 4096;
constexpr double kNearFormula = 1.25;
// The formula's k stands unless another candidate's estimate is this many times smaller: the estimates
// do not see how many Lloyd rounds the whole set takes (2.4 to 20.6 ms from k 64 to 128 on W5), and
// where the formula's k is near the best the model would trade a small gain for that risk.
constexpr double kFormulaMargin = 1.5;
// The formula's k is evaluated first; where the steps it changes are estimated below this many seconds,
// no other k could gain more than the other candidates' evaluation costs (1 to 3 ms each), which would
// make gpu-kmeans slower on sets the formula serves well (200 k x 128 in 2,000 clusters, below
// kKModelMinCoordinates now: evaluating four candidates took 7.5 ms of a 54 ms run).
constexpr double kWorthSearching = 0.025;
// Lloyd rounds on the sample from the drawn rows. Rows alone as centres split tight clusters that
// k-means keeps whole and leave every point of a cluster without a centre near several bisectors: on
// 1 M x 128 in 10,000 clusters at eps 0.09 they estimated 1.2e12 distance tests at k 250 where the
// engine's partitions compared 5.8e10. After a few rounds each centre is the mean of the clusters it
// holds, as the engine's are: 7.3e10 estimated after 5 rounds, 8.9e10 after 3 (docs/benchmarks.md, "k from
// a sample"). A round costs 0.2 to 0.8 ms on the sample.
constexpr int kModelRounds = 3;

// The samples the candidates partition and how many of the whole set's points and pairs a sampled one
// stands for.
struct Samples {
  DevicePoints a, b;  // b empty for a self-join
  bool self = true;
  double scale_a = 1, scale_b = 1;
  double pair_scale = 1;
};

Samples sample_sets(const DevicePoints& a, const DevicePoints* b) {
  Samples samples;
  samples.self = b == nullptr;
  samples.a = evenly_spaced(a, std::min(a.n, kKModelSample));
  const double m_a = double(samples.a.n);
  samples.scale_a = double(a.n) / m_a;
  if (samples.self) {
    // Pairs within a partition: s (s - 1) / 2 of a random sample of m of n points estimates S (S - 1) / 2
    // of the whole set times n (n - 1) / (m (m - 1)), its own diagonal included.
    samples.pair_scale = double(a.n) * double(a.n - 1) / (m_a * (m_a - 1));
    return samples;
  }
  samples.b = evenly_spaced(*b, std::min(b->n, kKModelSample));
  samples.scale_b = double(b->n) / double(samples.b.n);
  samples.pair_scale = samples.scale_a * samples.scale_b;
  return samples;
}

// A candidate's first centres: k rows of the sample drawn at random (k-means++ seeding costs 4e-5 s a
// centre: the sum over the candidates would exceed the run it prices). Drawn, not evenly spaced: points
// stored in a periodic order (clusters interleaved) would put evenly spaced rows in a few clusters.
DeviceBuffer<float> drawn_rows(const DevicePoints& sample, std::size_t k, std::uint64_t seed) {
  const std::vector<std::size_t> drawn = sample_indices(sample.n, k, seed);
  const std::vector<std::uint32_t> ids(drawn.begin(), drawn.end());
  DeviceBuffer<std::uint32_t> device_ids(k, "cost model centre rows");
  device_ids.upload(ids.data(), k);
  return gather_rows(sample.coords.data(), sample.stride, device_ids.data(), k, "cost model centres");
}

// B's sample partitioned around A's centres as the engine partitions the whole of B.
PartitionedPoints partition_other(const DevicePoints& sample, const DeviceClustering& centres, const double* gaps,
                                  double eps) {
  DeviceBuffer<std::uint32_t> membership(sample.n, "cost model membership");
  assign_nearest(sample, centres, membership.data());
  return partition_points(sample, membership.data(), centres, gaps, eps, true);
}

// The distance tests and copies of candidate k, estimated for the whole set (seconds not yet priced).
KCandidate evaluate(const Samples& samples, std::size_t k, double eps, std::uint64_t seed, RunControl& control) {
  DeviceClustering centres;
  centres.k = k;
  centres.centroids = drawn_rows(samples.a, k, seed);
  refine_clustering(samples.a, centres, control, kModelRounds);
  const DeviceBuffer<double> gaps = centroid_gaps(centres, samples.a.stride);  // k x k: 128 MiB at k 4096
  // The Lloyd rounds end on an assignment to the final centres: A's sample is partitioned by it.
  const PartitionedPoints parts_a =
      partition_points(samples.a, centres.membership.data(), centres, gaps.data(), eps, true);
  const PartitionedPoints parts_b =
      samples.self ? PartitionedPoints{} : partition_other(samples.b, centres, gaps.data(), eps);
  const PartitionedPoints& joined_b = samples.self ? parts_a : parts_b;
  KCandidate candidate;
  candidate.k = k;
  candidate.copies = double(parts_a.entries - samples.a.n) * samples.scale_a +
                     (samples.self ? 0.0 : double(parts_b.entries - samples.b.n) * samples.scale_b);
  candidate.compared = std::numeric_limits<double>::infinity();
  if (parts_a.listed && joined_b.listed)
    candidate.compared =
        double(partition_work(parts_a, joined_b, samples.self ? JoinShape::Self : JoinShape::Cross, k).compared) *
        samples.pair_scale;
  return candidate;
}

// What the steps that depend on k cost, by the rates above.
struct Prices {
  double pair, centre, copy;
  Prices(double points, std::size_t dims)
      : pair(kPairSeconds + kPairSecondsPerDim * double(dims)),
        centre(kSeedingSeconds + kFittingSeconds * points * double(dims) / kFittingCoordinates),
        copy(kCopySeconds128 * double(dims) / 128) {}
  double seconds(const KCandidate& c) const { return c.compared * pair + double(c.k) * centre + c.copies * copy; }
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Why the ascending search stops before evaluating k: from k on the centres alone cost more than the
// cheapest candidate in all. Empty where it goes on.
std::string centres_cost_too_much(const KChoice& choice, std::size_t k, const Prices& prices) {
  double cheapest = std::numeric_limits<double>::infinity();
  for (const KCandidate& c : choice.candidates) cheapest = std::min(cheapest, c.seconds);
  if (double(k) * prices.centre < cheapest) return {};
  return "from k " + std::to_string(k) + " on the centres alone cost more than the cheapest candidate in all";
}

// Why the ascending search stops after evaluating `next`: it compares more pairs than a smaller k, so
// past the clusters' own scale more partitions only add copies. Empty where it goes on.
std::string compares_more(const KChoice& choice, const KCandidate& next) {
  double fewest_below = std::numeric_limits<double>::infinity();
  for (const KCandidate& c : choice.candidates)
    if (c.k < next.k) fewest_below = std::min(fewest_below, c.compared);
  if (next.compared <= kComparedGrowth * fewest_below) return {};
  return "k " + std::to_string(next.k) + " compares more pairs than a smaller k: more partitions only add copies";
}
}  // namespace

// The formula's k, and powers of two from the largest at most a quarter of it (at least kFirstK) up to an
// eighth of the sample (each centre then stands for 8 sampled points at least), but for those within
// kNearFormula of the formula's, which would estimate about as much. The best k of the sweeps lay within
// a quarter to four times the formula's (docs/benchmarks.md, "k from a sample"), and each candidate
// costs a few milliseconds.
std::vector<std::size_t> candidate_ks(std::size_t m, std::size_t formula, std::size_t last) {
  std::vector<std::size_t> ks;
  const bool listed = formula <= last;
  if (listed) ks.push_back(std::min(formula, m));
  std::size_t first = kFirstK;
  while (first * 2 <= formula / 4) first *= 2;
  for (std::size_t k = first; k <= std::min({kLastK, m / 8, last}); k *= 2)
    if (!listed || double(k) > kNearFormula * double(formula) || double(k) * kNearFormula < double(formula))
      ks.push_back(k);
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

namespace {
// Where the formula's k was evaluated and the cheapest candidate is not kFormulaMargin times cheaper.
void keep_formula(KChoice& choice) {
  for (std::size_t i = 0; i < choice.candidates.size(); ++i)
    if (choice.candidates[i].k == choice.formula &&
        choice.candidates[i].seconds <= kFormulaMargin * choice.chosen().seconds)
      choice.best = i;
}
}  // namespace

KChoice settled(KChoice choice) {
  std::sort(choice.candidates.begin(), choice.candidates.end(),
            [](const KCandidate& x, const KCandidate& y) { return x.k < y.k; });
  for (std::size_t i = 0; i < choice.candidates.size(); ++i) {
    if (choice.candidates[i].seconds < choice.chosen().seconds) choice.best = i;
    choice.fewest = std::min(choice.fewest, choice.candidates[i].compared);
  }
  if (choice.candidates.empty()) return choice;
  keep_formula(choice);
  choice.k = choice.chosen().k;
  return choice;
}

KChoice model_k(const DevicePoints& a, const DevicePoints* b, std::size_t dims, double eps, std::size_t formula,
                std::size_t last, std::uint64_t seed, RunControl& control) {
  const Samples samples = sample_sets(a, b);
  const Prices prices(double(a.n + (b ? b->n : 0)), dims);
  KChoice choice;
  choice.formula = formula;
  choice.sample = samples.a.n;
  choice.whole = b ? double(a.n) * double(b->n) : double(a.n) * double(a.n - 1) / 2;
  const auto add = [&](std::size_t k) -> const KCandidate& {
    KCandidate candidate = evaluate(samples, k, eps, seed, control);
    candidate.seconds = prices.seconds(candidate);
    choice.candidates.push_back(candidate);
    return choice.candidates.back();
  };
  const std::vector<std::size_t> ks = candidate_ks(samples.a.n, formula, last);
  const bool formula_listed = std::find(ks.begin(), ks.end(), formula) != ks.end();
  if (formula_listed && add(formula).seconds < kWorthSearching) {
    choice.stopped = "the formula's k is estimated at under " + number(kWorthSearching * 1e3) +
                     " ms: no other k could gain what evaluating it costs";
    return settled(std::move(choice));
  }
  for (const std::size_t k : ks) {
    if (k == formula) continue;
    control.throw_if_cancelled();
    choice.stopped = centres_cost_too_much(choice, k, prices);
    if (!choice.stopped.empty()) break;
    choice.stopped = compares_more(choice, add(k));
    if (!choice.stopped.empty()) break;
  }
  return settled(std::move(choice));
}

void note_model(const KChoice& choice, std::vector<std::string>& notes) {
  notes.push_back("k chosen as " + std::to_string(choice.k) + " (cost model on " + std::to_string(choice.sample) +
                  " sampled points, k-means at each candidate k; the formula's k " + std::to_string(choice.formula) +
                  " stands unless another is estimated " + number(kFormulaMargin) + " times faster)");
  std::string list = "cost model, estimated for the whole set of " + number(choice.whole) +
                     " pairs (k: distance tests, copies, seconds of the steps k changes):";
  for (const KCandidate& c : choice.candidates)
    list += " " + std::to_string(c.k) + ": " + number(c.compared) + ", " + number(c.copies) + ", " + number(c.seconds) +
            ";";
  list.back() = '.';
  if (!choice.stopped.empty()) list += " Stopped: " + choice.stopped + ".";
  notes.push_back(list);
}

}  // namespace simjoin::gpu
