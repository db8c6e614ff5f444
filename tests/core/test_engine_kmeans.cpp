// KMEANS-JOIN specifics: replication against an independent evaluation of the bisector test, each
// pair compared exactly once, the choice and clamping of k, and the approximate variant.
#include <algorithm>
#include <cmath>
#include <set>

#include "core/engines/cpu_kmeans.hpp"
#include "core/points/kmeans.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
// The bisector test in long double without any margin: the copies the proof requires.
long double band_excess(const double* s, const double* ci, const double* cj, std::size_t d, double eps) {
  long double to_j = 0, to_i = 0, between = 0;
  for (std::size_t t = 0; t < d; ++t) {
    to_j += ((long double)s[t] - cj[t]) * ((long double)s[t] - cj[t]);
    to_i += ((long double)s[t] - ci[t]) * ((long double)s[t] - ci[t]);
    between += ((long double)ci[t] - cj[t]) * ((long double)ci[t] - cj[t]);
  }
  return to_j - to_i - 2 * (long double)eps * std::sqrt(between);
}

// Partitions holding each point: own plus copies, from the reported structure.
std::vector<std::set<std::uint32_t>> holders(const PartitionStructure& parts) {
  std::vector<std::set<std::uint32_t>> all(parts.membership.size());
  for (std::size_t p = 0; p < all.size(); ++p) all[p].insert(parts.membership[p]);
  for (std::size_t r = 0; r < parts.replica_point.size(); ++r)
    all[parts.replica_point[r]].insert(parts.replica_partition[r]);
  return all;
}

// Each point's centroid is a nearest one: the distances from an independent search in long double on the
// float values, with the float32 sums' rounding of at most (d + 2) 2^-24 relative either way allowed.
void expect_nearest_centroids(const PointSet32& points, const std::vector<float>& centroids,
                              const std::vector<std::uint32_t>& membership) {
  const std::size_t d = points.dims(), k = centroids.size() / d;
  const long double rounding = 2 * (long double)(d + 2) * 0x1p-24L;
  ASSERT_EQ(membership.size(), points.size());
  for (std::size_t p = 0; p < points.size(); ++p) {
    std::vector<long double> distance(k, 0);
    for (std::size_t c = 0; c < k; ++c)
      for (std::size_t t = 0; t < d; ++t) {
        const long double diff = (long double)points.point(p)[t] - centroids[c * d + t];
        distance[c] += diff * diff;
      }
    const long double best = *std::min_element(distance.begin(), distance.end());
    ASSERT_LT(membership[p], k) << "point " << p;
    ASSERT_LE(distance[membership[p]], best * (1 + rounding)) << "point " << p << " is not in its nearest partition";
  }
}

// Points held by each partition (own and copies).
std::vector<std::uint64_t> partition_sizes(const std::vector<std::set<std::uint32_t>>& held, std::size_t k) {
  std::vector<std::uint64_t> sizes(k, 0);
  for (const auto& partitions : held)
    for (std::uint32_t c : partitions) ++sizes[c];
  return sizes;
}

// Pairs inside the partitions, counted once per partition holding both: what the partitions' grids
// test at most.
std::uint64_t pairs_inside(const std::vector<std::uint64_t>& sizes_a, const std::vector<std::uint64_t>* sizes_b) {
  std::uint64_t pairs = 0;
  for (std::size_t c = 0; c < sizes_a.size(); ++c)
    pairs += sizes_b ? sizes_a[c] * (*sizes_b)[c] : sizes_a[c] * (sizes_a[c] - (sizes_a[c] > 0)) / 2;
  return pairs;
}

// B's partitions from the reported centroids: the nearest centroid plus the bisector test at eps
// times `widen`. The engine decides in its float32 frame with a search radius a hair above eps, so
// its copies lie between widen = 1 and widen = 1 + 1e-6.
std::vector<std::set<std::uint32_t>> holders_b(const PointSet& b, const PartitionStructure& parts, double eps,
                                               double widen) {
  const std::size_t d = b.dims();
  std::vector<std::set<std::uint32_t>> all(b.size());
  for (std::size_t q = 0; q < b.size(); ++q) {
    std::uint32_t i = 0;
    long double best = INFINITY;
    for (std::uint32_t c = 0; c < parts.k; ++c) {
      long double d2 = 0;
      for (std::size_t t = 0; t < d; ++t)
        d2 += ((long double)b.point(q)[t] - parts.centroids[c * d + t]) *
              ((long double)b.point(q)[t] - parts.centroids[c * d + t]);
      if (d2 < best) best = d2, i = c;
    }
    all[q].insert(i);
    for (std::uint32_t j = 0; j < parts.k; ++j)
      if (j != i && band_excess(b.point(q), &parts.centroids[i * d], &parts.centroids[j * d], d, eps * widen) <= 0)
        all[q].insert(j);
  }
  return all;
}

// The generators' values are float32 numbers, so this copy is exact.
PointSet32 to_float32(const PointSet& points) {
  return PointSet32(points.size(), points.dims(),
                    Coordinates<float>(points.data(), points.data() + points.size() * points.dims()));
}

std::uint64_t copies(const std::vector<std::set<std::uint32_t>>& held) {
  std::uint64_t count = 0;
  for (const auto& partitions : held) count += partitions.size() - 1;
  return count;
}

// The pairs compared: within the partitions' pairs where they were joined, else every pair of the
// whole set, by the nested loop, where the partitions held more than four times the whole set's pairs
// or their grids expected to test more than half of them.
void expect_compared(const RunResult& result, std::uint64_t pairs_in_partitions, std::uint64_t whole_set) {
  if (note_mentions(result.stats, "joined by the nested loop")) {
    if (note_mentions(result.stats, "their grids estimate"))
      EXPECT_GT(result.stats.estimated_tests * 2, whole_set);
    else  // more than 4 times, within the copies rounding adds
      EXPECT_GE(pairs_in_partitions * 100, whole_set * 390);
    EXPECT_EQ(result.stats.compared_pairs, whole_set);
  } else {
    EXPECT_LE(result.stats.compared_pairs, pairs_in_partitions);
    EXPECT_LE(result.stats.estimated_tests * 2, whole_set);
  }
  EXPECT_GE(result.stats.compared_pairs, result.stats.pairs);
}

JoinParams join_params(double eps, int k, std::uint64_t seed) {
  JoinParams params;
  params.eps = eps;
  params.k = k;
  params.seed = seed;
  return params;
}

struct Case {
  std::size_t d;
  int k;
};
}  // namespace

class KMeansJoin : public ::testing::TestWithParam<Case> {};

TEST_P(KMeansJoin, ReplicationMatchesIndependentBisectorTest) {
  const auto [d, k] = GetParam();
  const std::uint64_t seed = test_seed() + d * 100 + std::uint64_t(k);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 700, d, seed, 0, 1, 6, 0.08);
  const JoinParams params = join_params(0.1 * std::sqrt(double(d)), k, seed);
  CpuKMeansEngine engine;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, params, &result));
  ASSERT_TRUE(result.partitions);
  const PartitionStructure& parts = *result.partitions;
  ASSERT_EQ(parts.k, std::size_t(std::min<int>(k, 700)));
  EXPECT_EQ(result.stats.k, int(parts.k));
  EXPECT_EQ(result.stats.replicated_points, parts.replica_point.size());

  // Every copy the exact test requires is there; every other copy is within rounding of the band.
  const auto all = holders(parts);
  std::uint64_t required = 0;
  for (std::size_t p = 0; p < points.size(); ++p) {
    const std::uint32_t i = parts.membership[p];
    for (std::uint32_t j = 0; j < parts.k; ++j) {
      if (j == i) continue;
      const long double excess =
          band_excess(points.point(p), &parts.centroids[i * d], &parts.centroids[j * d], d, params.eps);
      if (excess <= 0) {
        ++required;
        EXPECT_TRUE(all[p].count(j)) << "point " << p << " not copied into " << j;
      } else if (all[p].count(j)) {
        EXPECT_LT(excess, 1e-6) << "point " << p << " copied into " << j << " far outside the band";
      }
    }
  }
  EXPECT_GE(result.stats.replicated_points, required);
  EXPECT_LE(result.stats.replicated_points, required + required / 100 + 5);

  // Each pair is reported once (the oracle check); each partition's grid tests some of the pairs
  // inside it, at least the ones it reports.
  const std::uint64_t n = points.size();
  expect_compared(result, pairs_inside(partition_sizes(all, parts.k), nullptr), n * (n - 1) / 2);
}

TEST_P(KMeansJoin, ABJoinReplicatesBAndReportsEachPairOnce) {
  const auto [d, k] = GetParam();
  const std::uint64_t seed = test_seed() + 5000 + d * 100 + std::uint64_t(k);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 600, d, seed, 0, 1, 6, 0.08);
  const PointSet b = random_points(Distribution::Clusters, 400, d, seed + 1, 0, 1, 6, 0.08);
  const JoinParams params = join_params(0.1 * std::sqrt(double(d)), k, seed);
  CpuKMeansEngine engine;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine, a, &b, params, &result));
  ASSERT_TRUE(result.partitions);
  const PartitionStructure& parts = *result.partitions;
  const auto required_b = holders_b(b, parts, params.eps, 1.0);
  const auto widest_b = holders_b(b, parts, params.eps, 1 + 1e-6);
  EXPECT_GE(result.stats.replicated_points, parts.replica_point.size() + copies(required_b));
  EXPECT_LE(result.stats.replicated_points, parts.replica_point.size() + copies(widest_b));
  const auto sizes_b = partition_sizes(widest_b, parts.k);
  expect_compared(result, pairs_inside(partition_sizes(holders(parts), parts.k), &sizes_b), a.size() * b.size());
}

INSTANTIATE_TEST_SUITE_P(DimsAndK, KMeansJoin,
                         ::testing::Values(Case{2, 1}, Case{2, 16}, Case{3, 7}, Case{8, 40}, Case{16, 5}, Case{64, 12},
                                           Case{2, 700}, Case{3, 5000}));

// With eps beyond every partition's extent no dimension spans a cell, so each partition's grid is
// one cell and tests every pair inside the partition: the compared count is known exactly, and the
// oracle check shows that pairs held by several partitions are still reported once. The clusters
// lie far apart for their eps, so the partitions compare far fewer pairs than the whole set.
TEST(KMeansJoinGrids, OneCellPartitionsTestEveryPairInside) {
  const std::uint64_t seed = test_seed() + 21;
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Centres in [0, 1000]^3: in [0, 100]^3 two of the four clusters lay close enough on about one seed in
  // 300 that the partitions held 93 % of the pairs, and the engine rightly joined by the nested loop.
  const PointSet a = random_points(Distribution::Clusters, 500, 3, seed, 0, 1000, 4, 0.05);
  const PointSet b = random_points(Distribution::Clusters, 300, 3, seed, 0, 1000, 4, 0.05);  // near A
  const JoinParams params = join_params(2.0, 6, seed);  // beyond every cluster's extent
  CpuKMeansEngine engine;
  RunResult self, ab;
  EXPECT_MATCHES_ORACLE(check_engine(engine, a, nullptr, params, &self));
  EXPECT_MATCHES_ORACLE(check_engine(engine, a, &b, params, &ab));
  const auto sizes_a = partition_sizes(holders(*self.partitions), 6);
  EXPECT_EQ(self.stats.compared_pairs, pairs_inside(sizes_a, nullptr));
  const auto sizes_b = partition_sizes(holders_b(b, *ab.partitions, params.eps, 1.0), 6);
  EXPECT_EQ(ab.stats.compared_pairs, pairs_inside(partition_sizes(holders(*ab.partitions), 6), &sizes_b));
  bool one_cell = false;
  for (const auto& note : self.stats.notes) one_cell |= note == "partition grids index 0 dimensions in 6 partitions";
  EXPECT_TRUE(one_cell);
}

// Uniform points in 16 dimensions with eps wider than most centroid gaps: every bisector band holds
// most points, so the partitions would compare more pairs than the whole set. The engine joins the
// whole set by the nested loop, says so, keeps the copies it counted for the views, and stays exact.
TEST(KMeansJoinGrids, ReplicationThatCannotPruneJoinsTheWholeSet) {
  const std::uint64_t seed = test_seed() + 23;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Uniform, 1500, 16, seed);
  const PointSet b = random_points(Distribution::Uniform, 500, 16, seed + 1);
  const JoinParams params = join_params(1.0, 12, seed);
  CpuKMeansEngine engine;
  RunResult self, ab;
  EXPECT_MATCHES_ORACLE(check_engine(engine, a, nullptr, params, &self));
  EXPECT_MATCHES_ORACLE(check_engine(engine, a, &b, params, &ab));
  for (const RunResult* result : {&self, &ab}) {
    EXPECT_TRUE(note_mentions(result->stats, "joined by the nested loop"));
    EXPECT_GT(result->stats.replicated_points, a.size());
    ASSERT_TRUE(result->partitions.has_value());
    EXPECT_GT(result->partitions->replica_point.size(), a.size());
  }
  EXPECT_EQ(self.stats.compared_pairs, a.size() * (a.size() - 1) / 2);
}

TEST(KMeansJoinK, ChosenAndClampedKAreNoted) {
  const PointSet points = random_points(Distribution::Uniform, 300, 2, test_seed());
  CpuKMeansEngine engine;
  JoinParams params = join_params(0.05, 0, test_seed());
  RunResult chosen;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, params, &chosen));
  EXPECT_GE(chosen.stats.k, 1);
  EXPECT_NE(chosen.stats.notes.front().find("k chosen"), std::string::npos);
  params.k = 1000;
  RunResult clamped;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, params, &clamped));
  EXPECT_EQ(clamped.stats.k, 300);
  EXPECT_NE(clamped.stats.notes.front().find("clamped to 300"), std::string::npos);
}

TEST(KMeansJoinK, ManyPartitionsBeyond64) {
  const std::uint64_t seed = test_seed() + 3;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 3000, 2, seed);
  CpuKMeansEngine engine;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, join_params(0.03, 1024, seed), &result));
  EXPECT_EQ(result.stats.k, 1024);
  EXPECT_GT(result.stats.replicated_points, 0u);
}

TEST(KMeansJoinApprox, MissesOnlyAndSaysRecallIsUnknown) {
  const std::uint64_t seed = test_seed() + 5;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 3000, 2, seed);
  CpuKMeansEngine approx(false);
  EXPECT_FALSE(approx.capabilities().exact);
  RunResult result;
  const VerifyReport report = check_engine(approx, points, nullptr, join_params(0.05, 30, seed), &result);
  EXPECT_TRUE(report.extra.empty() && report.duplicates == 0) << report.summary();
  // Uniform data with 30 partitions: pairs straddle the borders, and without copies they are lost.
  EXPECT_GT(report.missing.size(), 0u);
  EXPECT_EQ(result.stats.replicated_points, 0u);
  bool noted = false;
  for (const auto& note : result.stats.notes) noted |= note.find("recall") != std::string::npos;
  EXPECT_TRUE(noted);
}

// What each variant misses, against the reference: exactly the pairs whose points share no partition
// (own or copy): none with replication, those straddling a border without it.
TEST(KMeansJoinApprox, MissesExactlyThePairsSharingNoPartition) {
  const std::uint64_t seed = test_seed() + 6;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 3000, 2, seed);
  const JoinParams params = join_params(0.05, 30, seed);
  const std::vector<Pair> expected = oracle_pairs(points, nullptr, params.eps);
  for (bool replicate : {true, false}) {
    SCOPED_TRACE(replicate ? "cpu-kmeans" : "cpu-kmeans-approx");
    CpuKMeansEngine engine(replicate);
    RunResult result;
    const std::vector<Pair> got = run_pairs(engine, points, nullptr, params, &result);
    ASSERT_TRUE(result.partitions);
    const auto held = holders(*result.partitions);
    std::vector<Pair> sharing;
    for (const Pair& pair : expected) {
      const auto& first = held[pair.i];
      if (std::any_of(first.begin(), first.end(), [&](std::uint32_t c) { return held[pair.j].count(c) > 0; }))
        sharing.push_back(pair);
    }
    EXPECT_EQ(got, sharing);
    if (replicate)
      EXPECT_EQ(sharing.size(), expected.size());
    else
      EXPECT_LT(sharing.size(), expected.size());  // uniform data: pairs straddle the 30 partitions
  }
}

TEST(KMeans, CentroidsAreMeansOfTheirMembers) {
  const std::uint64_t seed = test_seed() + 9;
  const PointSet points = random_points(Distribution::Clusters, 2000, 3, seed, 0, 10, 4, 0.3);
  KMeansParams params;
  params.k = 4;
  params.seed = seed;
  params.max_iterations = 100;
  params.tolerance = 0;
  const PointSet32 narrow = to_float32(points);
  const KMeansResult result = kmeans(narrow, params);
  ASSERT_EQ(result.centroids.size(), 12u);
  expect_nearest_centroids(narrow, result.centroids, result.membership);
  // Converged: each centroid is the mean of its members (to float rounding).
  for (std::uint32_t c = 0; c < 4; ++c) {
    double sum[3] = {0, 0, 0};
    std::size_t count = 0;
    for (std::size_t p = 0; p < points.size(); ++p)
      if (result.membership[p] == c) {
        ++count;
        for (int t = 0; t < 3; ++t) sum[t] += points.point(p)[t];
      }
    ASSERT_GT(count, 0u);
    for (int t = 0; t < 3; ++t) EXPECT_NEAR(result.centroids[c * 3 + t], sum[t] / double(count), 1e-3);
  }
}

TEST(KMeans, FittedOnASampleAssignsEveryPoint) {
  const std::uint64_t seed = test_seed() + 10;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 3000, 4, seed, 0, 10, 5, 0.3);
  KMeansParams params;
  params.k = 5;
  params.seed = seed;
  params.sample = 400;
  const PointSet32 narrow = to_float32(points);
  const KMeansResult sampled = kmeans(narrow, params);
  ASSERT_EQ(sampled.membership.size(), points.size());
  expect_nearest_centroids(narrow, sampled.centroids, sampled.membership);
  // A sample smaller than k is widened to k points rather than refused.
  params.k = 50;
  params.sample = 10;
  EXPECT_EQ(kmeans(narrow, params).centroids.size(), 50u * 4);
}
