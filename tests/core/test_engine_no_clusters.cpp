// Index engines on data they cannot prune: points near a low-dimensional subspace of 128-D, with
// noise and no clusters, at an eps of about 64 neighbours a point. cpu-grid and cpu-kmeans find from
// their own estimates that they would test most pairs, join the whole set by the nested loop, say so
// with the numbers, and stay exact; on tight clusters of the same size they keep their index.
#include <algorithm>
#include <cmath>
#include <random>

#include "core/engines/cpu_grid.hpp"
#include "core/engines/cpu_kmeans.hpp"
#include "tests/core/manifold_sets.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
constexpr std::size_t kPoints = 2000, kDims = 128, kLatent = 16;

bool fell_back(const RunStats& stats) {
  return note_mentions(stats, "cannot prune this data at this eps, so the whole set was joined by the nested loop");
}

// The stats of cpu-grid's and cpu-kmeans' runs on `points`, each run's pairs checked against the
// oracle's (computed once: it is most of the test's time).
std::vector<RunStats> run_both(const PointSet& points, double eps, std::uint64_t seed) {
  const std::vector<Pair> expected = oracle_pairs(points, nullptr, eps);
  EXPECT_GT(expected.size(), points.size());  // a join with work to do, not an empty one
  JoinParams params;
  params.eps = eps;
  params.k = 8;  // cpu-kmeans: enough partitions for copies along their borders
  params.seed = seed;
  CpuGridEngine grid;
  CpuKMeansEngine kmeans;
  std::vector<RunStats> stats;
  for (Engine* engine : {static_cast<Engine*>(&grid), static_cast<Engine*>(&kmeans)}) {
    RunResult result;
    EXPECT_EQ(run_pairs(*engine, points, nullptr, params, &result), expected) << engine->name();
    stats.push_back(result.stats);
  }
  return stats;
}
}  // namespace

TEST(IndexEnginesWithoutClusters, JoinByTheNestedLoopAndSayWhy) {
  const std::uint64_t seed = test_seed() + 42;
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Gaussian coordinates on a random 16-dimensional subspace, plus isotropic noise of a tenth of their
  // spread in every dimension, at an eps of 64 neighbours a point.
  const PointSet points = subspace_points(kPoints, kDims, kLatent, 0.1, 0.0, seed);
  const double eps = eps_for_neighbours(points, 64, 40);
  const std::uint64_t whole = kPoints * (kPoints - 1) / 2;
  for (const RunStats& stats : run_both(points, eps, seed)) {
    SCOPED_TRACE(stats.engine);
    EXPECT_TRUE(fell_back(stats));
    EXPECT_EQ(stats.compared_pairs, whole);  // the nested loop's, each pair once
    EXPECT_GT(stats.estimated_tests, whole / 2);
  }
}

TEST(IndexEnginesWithoutClusters, TightClustersKeepTheIndex) {
  const std::uint64_t seed = test_seed() + 43;
  SCOPED_TRACE("seed " + std::to_string(seed));
  // 20 clusters about 0.11 across, centres some 4.6 apart: eps 0.2 holds most of a cluster.
  const PointSet points = random_points(Distribution::Clusters, kPoints, kDims, seed, 0, 1, 20, 0.01);
  const std::uint64_t whole = kPoints * (kPoints - 1) / 2;
  for (const RunStats& stats : run_both(points, 0.2, seed)) {
    SCOPED_TRACE(stats.engine);
    EXPECT_FALSE(fell_back(stats));
    EXPECT_LT(stats.compared_pairs, whole / 4);
    EXPECT_GT(stats.estimated_tests, 0u);
    EXPECT_LT(stats.estimated_tests, whole / 2);
  }
}
