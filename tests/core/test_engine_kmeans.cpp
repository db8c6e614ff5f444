// KMEANS-JOIN specifics: replication against an independent evaluation of the bisector test, each
// pair compared exactly once, the choice and clamping of k, and the approximate variant.
#include <cmath>
#include <set>

#include "core/engines/cpu_kmeans.hpp"
#include "core/kmeans.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
// The bisector test in long double without any margin: the copies the proof requires.
long double band_excess(const float* s, const float* ci, const float* cj, std::size_t d, double eps) {
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

bool share(const std::set<std::uint32_t>& x, const std::set<std::uint32_t>& y) {
  for (std::uint32_t c : x)
    if (y.count(c)) return true;
  return false;
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

  // Each pair sharing a partition is compared exactly once, and no other pair is compared.
  std::uint64_t sharing = 0;
  for (std::size_t p = 0; p < points.size(); ++p)
    for (std::size_t q = p + 1; q < points.size(); ++q) sharing += share(all[p], all[q]);
  EXPECT_EQ(result.stats.compared_pairs, sharing);
}

TEST_P(KMeansJoin, ABJoinComparesEachSharedPairOnce) {
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
  // B's partitions: nearest centroid plus the same bisector test.
  const PartitionStructure& parts = *result.partitions;
  const auto all_a = holders(parts);
  std::uint64_t copies_b = 0, sharing = 0;
  std::vector<std::set<std::uint32_t>> all_b(b.size());
  for (std::size_t q = 0; q < b.size(); ++q) {
    const std::uint32_t i = nearest_centroid(b.point(q), parts.centroids, d);
    all_b[q].insert(i);
    for (std::uint32_t j = 0; j < parts.k; ++j)
      if (j != i && in_bisector_band(b.point(q), &parts.centroids[i * d], &parts.centroids[j * d], d, params.eps)) {
        all_b[q].insert(j);
        ++copies_b;
      }
  }
  EXPECT_EQ(result.stats.replicated_points, parts.replica_point.size() + copies_b);
  for (std::size_t p = 0; p < a.size(); ++p)
    for (std::size_t q = 0; q < b.size(); ++q) sharing += share(all_a[p], all_b[q]);
  EXPECT_EQ(result.stats.compared_pairs, sharing);
}

INSTANTIATE_TEST_SUITE_P(DimsAndK, KMeansJoin,
                         ::testing::Values(Case{2, 1}, Case{2, 16}, Case{3, 7}, Case{8, 40},
                                           Case{16, 5}, Case{64, 12}, Case{2, 700}, Case{3, 5000}));

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

TEST(KMeans, CentroidsAreMeansOfTheirMembers) {
  const std::uint64_t seed = test_seed() + 9;
  const PointSet points = random_points(Distribution::Clusters, 2000, 3, seed, 0, 10, 4, 0.3);
  KMeansParams params;
  params.k = 4;
  params.seed = seed;
  params.max_iterations = 100;
  params.tolerance = 0;
  const KMeansResult result = kmeans(points, params);
  ASSERT_EQ(result.centroids.size(), 12u);
  for (std::size_t p = 0; p < points.size(); ++p)
    EXPECT_EQ(result.membership[p], nearest_centroid(points.point(p), result.centroids, 3));
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
