// Every index engine against the float64 oracle on fresh random inputs and on the edge cases.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

class IndexEngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SIMJOIN_SKIP_WITHOUT_GPU();
  }
  Engine& engine() { return gpu_engine(GetParam()); }
  VerifyReport check(const PointSet& a, const PointSet* b, double eps, RunResult* result = nullptr) {
    JoinParams params;
    params.eps = eps;
    return check_engine(engine(), a, b, params, result);
  }
};

// eps giving about `neighbours` expected neighbours per point for n uniform points in [0, 1]^d.
double eps_for(std::size_t n, std::size_t d, double neighbours) {
  const double unit_ball = std::pow(M_PI, d / 2.0) / std::tgamma(d / 2.0 + 1);
  return std::pow(neighbours / (double(n) * unit_ball), 1.0 / double(d));
}

TEST_P(IndexEngineTest, UniformSelfJoinMatchesOracle) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {1, 2, 3, 5, 8, 12}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const std::size_t n = 6000;
    const PointSet points = random_points(Distribution::Uniform, n, d, seed + d);
    RunResult result;
    const VerifyReport report = check(points, nullptr, eps_for(n, d, 20), &result);
    EXPECT_MATCHES_ORACLE(report);
    EXPECT_GT(result.stats.pairs, n);  // the eps really yields neighbours
    EXPECT_GT(result.stats.compared_pairs, 0u);
  }
}

TEST_P(IndexEngineTest, ClusteredSelfJoinMatchesOracle) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 4, 16}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Clusters, 8000, d, seed ^ d, 0, 100, 6, 1.5);
    EXPECT_MATCHES_ORACLE(check(points, nullptr, 0.8 * std::sqrt(double(d))));
  }
}

TEST_P(IndexEngineTest, JoinOfTwoSetsMatchesOracle) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3, 7}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet a = random_points(Distribution::Uniform, 5000, d, seed + 2 * d);
    // B reaches beyond A's bounds on every side.
    const PointSet b = random_points(Distribution::Clusters, 3000, d, seed + 2 * d + 1, -0.2, 1.2, 4, 0.1);
    EXPECT_MATCHES_ORACLE(check(a, &b, eps_for(5000, d, 15)));
    EXPECT_MATCHES_ORACLE(check(b, &a, eps_for(5000, d, 15)));
  }
}

TEST_P(IndexEngineTest, TinyInputs) {
  const PointSet empty(0, 3);
  EXPECT_MATCHES_ORACLE(check(empty, nullptr, 1.0));
  const PointSet one(1, 3, {0.5, 0.5, 0.5});
  EXPECT_MATCHES_ORACLE(check(one, nullptr, 1.0));
  EXPECT_MATCHES_ORACLE(check(empty, &one, 1.0));
  EXPECT_MATCHES_ORACLE(check(one, &empty, 1.0));
  const PointSet two(2, 3, {0, 0, 0, 0.3, 0.4, 0});
  EXPECT_MATCHES_ORACLE(check(two, nullptr, 0.5));   // 0.5 apart up to float64 rounding: the oracle decides
  EXPECT_MATCHES_ORACLE(check(two, nullptr, 0.49));
  EXPECT_MATCHES_ORACLE(check(one, &two, 0.9));
}

TEST_P(IndexEngineTest, DuplicatesAndIdenticalPoints) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // All identical: every pair, for any eps including 0.
  const PointSet same(700, 4, Coordinates<double>(700 * 4, 3.25));
  RunResult result;
  EXPECT_MATCHES_ORACLE(check(same, nullptr, 0.0, &result));
  EXPECT_EQ(result.stats.pairs, 700u * 699u / 2);
  EXPECT_MATCHES_ORACLE(check(same, nullptr, 0.1));
  // Random points, each repeated: eps = 0 finds exactly the copies.
  PointSet base = random_points(Distribution::Uniform, 2000, 3, seed);
  PointSet doubled(4000, 3);
  for (std::size_t i = 0; i < 4000; ++i)
    for (std::size_t k = 0; k < 3; ++k) doubled.point(i)[k] = base.point(i % 2000)[k];
  EXPECT_MATCHES_ORACLE(check(doubled, nullptr, 0.0, &result));
  EXPECT_EQ(result.stats.pairs, 2000u);
  EXPECT_MATCHES_ORACLE(check(doubled, nullptr, 0.02));
  EXPECT_MATCHES_ORACLE(check(base, &doubled, 0.0));
}

TEST_P(IndexEngineTest, EpsBeyondDiameterGivesAllPairs) {
  const PointSet points = random_points(Distribution::Uniform, 1500, 3, test_seed());
  RunResult result;
  EXPECT_MATCHES_ORACLE(check(points, nullptr, 2.0, &result));
  EXPECT_EQ(result.stats.pairs, 1500u * 1499u / 2);
}

TEST_P(IndexEngineTest, LatticeExactlyEpsApart) {
  for (std::size_t d : {1, 2, 3, 4}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const std::size_t side = d == 1 ? 500 : (d == 2 ? 40 : (d == 3 ? 12 : 6));
    const PointSet lattice = lattice_points(side, d, 0.25);  // exactly eps apart along the axes
    RunResult result;
    EXPECT_MATCHES_ORACLE(check(lattice, nullptr, 0.25, &result));
    // Each lattice point has a neighbour at exactly eps along each axis (the boundary is inclusive).
    EXPECT_GE(result.stats.pairs, d * (side - 1));
    EXPECT_MATCHES_ORACLE(check(lattice, nullptr, 0.25 * std::sqrt(2.0)));
  }
}

TEST_P(IndexEngineTest, HugeCoordinates) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet far = random_points(Distribution::Uniform, 3000, 3, seed, 1e7, 1e7 + 100);
  EXPECT_MATCHES_ORACLE(check(far, nullptr, 3.0));
  PointSet wide = random_points(Distribution::Clusters, 3000, 2, seed + 1, -1e15, 1e15, 5, 1e12);
  EXPECT_MATCHES_ORACLE(check(wide, nullptr, 2e11));
  EXPECT_MATCHES_ORACLE(check(wide, nullptr, 1e-3));  // tiny eps against a huge extent
}

TEST_P(IndexEngineTest, CountOnlyAgreesWithPairs) {
  const PointSet points = random_points(Distribution::Clusters, 20000, 3, test_seed(), 0, 10, 8, 0.3);
  JoinParams params;
  params.eps = 0.05;
  PairListSink list;
  RunControl control;
  run_engine(engine(), {&points, nullptr}, params, list, control);
  EXPECT_GT(list.count(), 0u);
  EXPECT_EQ(count_pairs(engine(), points, nullptr, params), list.count());
}

TEST_P(IndexEngineTest, LargeUniformMatchesOracle) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::size_t n = 200'000;
  const PointSet points = random_points(Distribution::Uniform, n, 2, seed);
  EXPECT_MATCHES_ORACLE(check(points, nullptr, eps_for(n, 2, 30)));
}

// Small cases for compute-sanitizer (memcheck, racecheck): self-join and A join B.
TEST_P(IndexEngineTest, Sanitizer) {
  const std::uint64_t seed = test_seed();
  const PointSet a = random_points(Distribution::Uniform, 400, 3, seed);
  const PointSet b = random_points(Distribution::Uniform, 300, 3, seed + 1);
  EXPECT_MATCHES_ORACLE(check(a, nullptr, 0.15));
  EXPECT_MATCHES_ORACLE(check(a, &b, 0.15));
}

INSTANTIATE_TEST_SUITE_P(Engines, IndexEngineTest, ::testing::Values("gpu-grid", "gpu-lss", "gpu-boehm"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace simjoin::testing
