// gpu-kmeans specifics: the partition structure it reports, large k, the approximate variant, and
// large inputs (also those whose k-means is fitted on a sample) checked against cpu-grid on all the
// points and against the independent reference (tests/reference) on a random subset of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

#include "app/registry/every_engine.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"
#include "tests/cuda/subset_reference.hpp"

namespace simjoin::testing {
namespace {

Engine& engine_named(const std::string& name) {
  static const EngineRegistry* registry = [] {  // never destroyed, as gpu_registry()
    auto* made = new EngineRegistry;
    register_every_engine(*made);
    return made;
  }();
  return registry->get(name);
}

class GpuKMeans : public ::testing::Test {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
};

// Squared distance and squared norms of a point and a centroid, in float64.
double squared(const double* p, const double* c, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += (p[k] - c[k]) * (p[k] - c[k]);
  return sum;
}
double norms2(const double* p, const double* c, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += p[k] * p[k] + c[k] * c[k];
  return sum;
}

// Each point's partition is its nearest centroid, by a float64 search over all k centroids written
// here (not the engine's nearest_centroid). The engine measures in float32, so a partition whose
// distance is within float32 rounding of the nearest one counts as a tie; ties are rare (at most 0.1%).
void expect_nearest_centroids(const PointSet& points, const PartitionStructure& parts) {
  const std::size_t d = points.dims();
  std::size_t ties = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint32_t own = parts.membership[i];
    ASSERT_LT(own, parts.k) << "point " << i;
    std::size_t nearest = 0;
    for (std::size_t c = 1; c < parts.k; ++c)
      if (squared(points.point(i), &parts.centroids[c * d], d) <
          squared(points.point(i), &parts.centroids[nearest * d], d))
        nearest = c;
    if (own == nearest) continue;
    ++ties;
    const double gap = squared(points.point(i), &parts.centroids[own * d], d) -
                       squared(points.point(i), &parts.centroids[nearest * d], d);
    EXPECT_LE(gap, 1e-5 * norms2(points.point(i), &parts.centroids[nearest * d], d))
        << "point " << i << " is in partition " << own << ", its nearest centroid is " << nearest;
  }
  EXPECT_LE(ties, points.size() / 1000) << ties << " points not in their nearest partition (float64)";
}

TEST_F(GpuKMeans, ReportsPartitionsAndReplicas) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 6000, 3, seed, 0, 10, 8, 0.6);
  JoinParams params;
  params.eps = 0.4;
  params.k = 10;
  params.seed = seed;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), points, nullptr, params, &result));
  ASSERT_TRUE(result.partitions.has_value());
  const PartitionStructure& parts = *result.partitions;
  EXPECT_EQ(parts.k, 10u);
  EXPECT_EQ(result.stats.k, 10);
  EXPECT_EQ(parts.centroids.size(), 10u * 3);
  ASSERT_EQ(parts.membership.size(), points.size());
  EXPECT_GE(parts.iterations, 1);
  EXPECT_EQ(parts.replica_point.size(), result.stats.replicated_points);
  EXPECT_GT(result.stats.replicated_points, 0u);
  ASSERT_EQ(parts.replica_point.size(), parts.replica_partition.size());
  // Each point belongs to its nearest centroid, and every copy lies in another partition, once.
  expect_nearest_centroids(points, parts);
  std::set<std::pair<std::uint32_t, std::uint32_t>> copies;
  for (std::size_t r = 0; r < parts.replica_point.size(); ++r) {
    EXPECT_NE(parts.replica_partition[r], parts.membership[parts.replica_point[r]]);
    EXPECT_TRUE(copies.insert({parts.replica_point[r], parts.replica_partition[r]}).second) << "copy twice";
  }
  EXPECT_LT(result.stats.compared_pairs, points.size() * (points.size() - 1) / 2);
}

TEST_F(GpuKMeans, ManyPartitions) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 20000, 2, seed, 0, 10);
  JoinParams params;
  params.eps = 0.08;
  params.k = 1500;  // membership lists well beyond one 64-bit mask
  params.seed = seed;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), points, nullptr, params, &result));
  EXPECT_EQ(result.stats.k, 1500);
}

// Uniform points in 16 dimensions with eps wider than most centroid gaps: every bisector band
// holds most points, so the partitions would compare more pairs than the whole set. The engine joins
// the whole set by the brute force, says so with the counted copies, and stays exact, at any k.
TEST_F(GpuKMeans, ReplicationThatCannotPruneJoinsTheWholeSet) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 3000, 16, seed, 0, 1);
  for (const int k : {16, 512}) {
    JoinParams params;
    params.eps = 1.0;
    params.k = k;
    params.seed = seed;
    params.structures = true;
    RunResult result;
    EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), points, nullptr, params, &result));
    EXPECT_TRUE(note_mentions(result.stats, "joined by the brute force")) << "k " << k;
    EXPECT_GT(result.stats.replicated_points, points.size()) << "k " << k;
    ASSERT_TRUE(result.partitions.has_value());
    EXPECT_EQ(result.partitions->replica_point.size(), result.stats.replicated_points);
  }
}

// Clustered points joined with a gather budget far below the grouped points (batch_bytes bounds it):
// the partitions are joined in many rounds, each gathering its own points, and nothing is lost.
TEST_F(GpuKMeans, RoundsOfPartitionsLoseNothing) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 20000, 8, seed, 0, 10, 40, 0.4);
  const PointSet b = random_points(Distribution::Clusters, 5000, 8, seed + 1, 0, 10, 40, 0.4);
  JoinParams params;
  params.eps = 0.3;
  params.k = 64;
  params.seed = seed;
  params.batch_bytes = 64 << 10;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), a, nullptr, params, &result));
  EXPECT_FALSE(note_mentions(result.stats, "joined by the brute force"));
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), a, &b, params, &result));
}

TEST_F(GpuKMeans, ApproximateFindsNoFalsePairs) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 8000, 4, seed, 0, 10, 6, 0.6);
  JoinParams params;
  params.eps = 0.5;
  params.k = 12;
  params.seed = seed;
  RunResult result;
  const VerifyReport report = check_engine(engine_named("gpu-kmeans-approx"), points, nullptr, params, &result);
  EXPECT_TRUE(report.extra.empty()) << report.summary();
  EXPECT_EQ(report.duplicates, 0u);
  EXPECT_EQ(result.stats.replicated_points, 0u);
  EXPECT_FALSE(engine_named("gpu-kmeans-approx").capabilities().exact);
  const std::size_t exact = oracle_pairs(points, nullptr, params.eps).size();
  EXPECT_GT(result.stats.pairs, exact / 2) << "recall far too low";
}

// Points of the reference's subset: its brute force takes a few seconds for 20,000 points in 8-D.
constexpr std::size_t kSubset = 20000;

// n = 200,000: too many pairs for a brute force, so gpu-kmeans and gpu-inlj are checked pair for pair
// against cpu-grid (other code: a CPU grid, its own frame) and, on a random subset of the points,
// against the reference; the oracle checks a 20,000-point prefix and an A join B.
TEST_F(GpuKMeans, LargeInputsAgreeAcrossEngines) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (Distribution kind : {Distribution::Clusters, Distribution::Uniform}) {
    const PointSet points = random_points(kind, 200000, 8, seed, 0, 10, 10, 0.5);
    JoinParams params;
    params.eps = kind == Distribution::Clusters ? 0.5 : 1.2;
    params.k = 20;
    params.seed = seed;
    const std::vector<Pair> grid = run_pairs(engine_named("cpu-grid"), points, nullptr, params);
    EXPECT_GT(grid.size(), 1000u);
    for (const char* name : {"gpu-kmeans", "gpu-inlj"}) {
      SCOPED_TRACE(name);
      const std::vector<Pair> got = run_pairs(engine_named(name), points, nullptr, params);
      EXPECT_MATCHES_ORACLE(compare_pairs(got, grid));
      EXPECT_MATCHES_ORACLE(compare_on_subset(got, points, params.eps, kSubset, seed + 2));
    }
    const PointSet subset(20000, 8, Coordinates<double>(points.data(), points.data() + 20000 * 8));
    EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), subset, nullptr, params));
    const PointSet others = random_points(kind, 20000, 8, seed + 1, 0, 10, 10, 0.5);
    EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), subset, &others, params));
  }
}

// Above 262,144 points the Lloyd rounds fit the centroids on an evenly spaced sample, and every point
// then takes its nearest final centroid: the replication's guarantee, and so the pairs, must not change.
TEST_F(GpuKMeans, LloydOnASampleStaysExact) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 300000, 8, seed, 0, 10, 12, 0.5);
  JoinParams params;
  params.eps = 0.4;
  params.k = 30;
  params.seed = seed;
  RunResult result;
  const std::vector<Pair> got = run_pairs(engine_named("gpu-kmeans"), points, nullptr, params, &result);
  EXPECT_TRUE(std::any_of(result.stats.notes.begin(), result.stats.notes.end(), [](const std::string& note) {
    return note.find("on 262144 evenly spaced points") != std::string::npos;
  })) << "expected the rounds to run on a sample";
  ASSERT_TRUE(result.partitions.has_value());
  expect_nearest_centroids(points, *result.partitions);  // the points outside the sample too
  const std::vector<Pair> grid = run_pairs(engine_named("cpu-grid"), points, nullptr, params);
  EXPECT_GT(grid.size(), 1000u);
  EXPECT_MATCHES_ORACLE(compare_pairs(got, grid));
  EXPECT_MATCHES_ORACLE(compare_on_subset(got, points, params.eps, kSubset, seed + 1));
}

// cpu-kmeans and gpu-kmeans fit their centroids differently (seeds drawn from all points or, on the
// GPU, from a sample; float64 or float32 sums; the settling rules of core/numeric/numeric_rules.hpp), but
// where the data leave one answer, k clusters far apart, both find it: the same partitions up to
// their numbering.
TEST_F(GpuKMeans, SamePartitionsAsCpuKMeansOnSeparatedClusters) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  constexpr std::size_t k = 6, d = 3;
  // Clusters of spread 1 whose centres lie 10^4 apart, interleaved in the rows: k-means++ draws a
  // second seed in an already seeded cluster with a probability of about d / 10^8 per draw, and Lloyd
  // then keeps the clusters as they are.
  std::mt19937_64 random(seed);
  std::normal_distribution<double> spread(0, 1);
  PointSet points(24000, d);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t cluster = i % k;
    const double centre[d] = {1e4 * double(cluster / 2), 1e4 * double(cluster % 2), 0};
    for (std::size_t t = 0; t < d; ++t) points.point(i)[t] = centre[t] + spread(random);
  }
  JoinParams params;
  params.eps = 0.3;
  params.k = int(k);
  params.seed = seed;
  RunResult cpu, gpu;
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("cpu-kmeans"), points, nullptr, params, &cpu));
  EXPECT_MATCHES_ORACLE(check_engine(engine_named("gpu-kmeans"), points, nullptr, params, &gpu));
  ASSERT_TRUE(cpu.partitions && gpu.partitions);
  ASSERT_EQ(cpu.partitions->membership.size(), points.size());
  ASSERT_EQ(gpu.partitions->membership.size(), points.size());
  // The numbering that maps cpu-kmeans' partitions onto gpu-kmeans': one-to-one, the same for every point.
  std::map<std::uint32_t, std::uint32_t> to_gpu;
  std::set<std::uint32_t> used;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint32_t c = cpu.partitions->membership[i], g = gpu.partitions->membership[i];
    const auto [at, fresh] = to_gpu.emplace(c, g);
    if (fresh) EXPECT_TRUE(used.insert(g).second) << "two cpu-kmeans partitions in gpu-kmeans partition " << g;
    differ += at->second != g;
  }
  EXPECT_EQ(to_gpu.size(), k);
  EXPECT_EQ(differ, 0u) << "points in other partitions";
}

// From 5e7 coordinates a cost model on a sample (cuda/detail/kmeans_cost.hpp) chooses k and asks
// whether partitions can prune. On 4,000 tight clusters in 128-D (400,000 points) they can: the engine
// clusters at the model's k, with its estimates in a note, and stays exact, in a self-join and in A join B.
TEST_F(GpuKMeans, CostModelKeepsClusteredDataPartitioned) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 400000, 128, seed, 0, 10, 4000, 0.0033);
  // The same clusters and stream: B is A's first 20,000 points, so every point of B has a pair in A.
  const PointSet b = random_points(Distribution::Clusters, 20000, 128, seed, 0, 10, 4000, 0.0033);
  JoinParams params;
  params.eps = 0.05;
  params.seed = seed;
  RunResult result;
  const std::vector<Pair> got = run_pairs(engine_named("gpu-kmeans"), a, nullptr, params, &result);
  EXPECT_TRUE(note_mentions(result.stats, "k chosen as " + std::to_string(result.stats.k) + " (cost model on 32768"));
  EXPECT_TRUE(note_mentions(result.stats, "cost model, estimated for the whole set"));
  EXPECT_GT(result.stats.k, 0);
  EXPECT_TRUE(note_mentions(result.stats, "Lloyd iterations"));
  EXPECT_GT(result.stats.estimated_tests, 0u);
  EXPECT_LT(result.stats.estimated_tests, candidate_pairs(true, a.size(), 0) / 4);
  const std::vector<Pair> brute = run_pairs(engine_named("gpu-bruteforce"), a, nullptr, params);
  EXPECT_GT(brute.size(), 10000u);
  EXPECT_MATCHES_ORACLE(compare_pairs(got, brute));
  EXPECT_MATCHES_ORACLE(compare_on_subset(got, a, params.eps, kSubset, seed + 2));
  const std::vector<Pair> cross = run_pairs(engine_named("gpu-kmeans"), a, &b, params, &result);
  EXPECT_TRUE(note_mentions(result.stats, "(cost model on 32768 sampled points"));
  EXPECT_GT(cross.size(), b.size());
  EXPECT_MATCHES_ORACLE(compare_pairs(cross, run_pairs(engine_named("gpu-bruteforce"), a, &b, params)));
}

// Uniform points in [0, 1]^128, 400,000 of them at eps 3.55 (a neighbour or two a point): no k prunes,
// and the whole set is joined by the brute force, exactly, whether the cost model or the counted copies
// find it; where the views ask for the partitions, it clusters at the model's k.
TEST_F(GpuKMeans, DataThatCannotPruneJoinsByTheBruteForce) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 400000, 128, seed, 0, 1);
  JoinParams params;
  params.eps = 3.55;
  params.seed = seed;
  RunResult result;
  const std::vector<Pair> got = run_pairs(engine_named("gpu-kmeans"), points, nullptr, params, &result);
  EXPECT_TRUE(note_mentions(result.stats, "(cost model on 32768 sampled points"));
  EXPECT_TRUE(note_mentions(result.stats, "so the whole set was joined by the brute force"));
  EXPECT_GT(result.stats.estimated_tests, candidate_pairs(true, points.size(), 0) / 2);
  EXPECT_GT(got.size(), 1000u);
  EXPECT_MATCHES_ORACLE(compare_pairs(got, run_pairs(engine_named("gpu-bruteforce"), points, nullptr, params)));
  EXPECT_MATCHES_ORACLE(compare_on_subset(got, points, params.eps, 4000, seed + 1));
  params.structures = true;
  const std::vector<Pair> viewed = run_pairs(engine_named("gpu-kmeans"), points, nullptr, params, &result);
  EXPECT_GT(result.stats.k, 0);
  EXPECT_TRUE(note_mentions(result.stats, "Lloyd iterations"));
  EXPECT_TRUE(result.partitions.has_value());
  EXPECT_MATCHES_ORACLE(compare_pairs(viewed, got));
}

}  // namespace
}  // namespace simjoin::testing
