// gpu-nlj, gpu-inlj, gpu-bruteforce and gpu-kmeans against the float64 oracle on fresh random inputs
// and on the edge cases. Every case skips, naming the reason, where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

class ExactGpuEngine : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  Engine& engine() { return gpu_engine(GetParam()); }
  bool supports_ab() { return engine().capabilities().ab_join; }
  bool supports_dims(std::size_t d) { return d <= engine().capabilities().max_dims; }
  JoinParams params(double eps, int k = 7) {
    JoinParams p;
    p.eps = eps;
    p.k = k;
    p.seed = test_seed();
    return p;
  }
  void expect_matches(const PointSet& a, const PointSet* b, const JoinParams& p) {
    RunResult result;
    const VerifyReport report = check_engine(engine(), a, b, p, &result);
    EXPECT_MATCHES_ORACLE(report);
    EXPECT_EQ(count_pairs(engine(), a, b, p), result.stats.pairs) << "count-only run differs";
  }
};

TEST_P(ExactGpuEngine, UniformSelfJoinSeveralDims) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {1, 2, 3, 5, 8, 16, 33, 64}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Uniform, 3001, d, seed + d);
    // About a thousand pairs or more at every d (uniform distances concentrate near sqrt(d / 6)).
    const double eps = d == 1 ? 0.001 : d == 2 ? 0.01 : d == 3 ? 0.04 : d == 5 ? 0.15 : std::sqrt(d / 6.0) - 0.55;
    expect_matches(points, nullptr, params(eps));
  }
}

TEST_P(ExactGpuEngine, ClusteredSelfJoin) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 8, 20}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Clusters, 4000, d, seed + d, 0, 10, 6, 0.5);
    expect_matches(points, nullptr, params(0.4 * std::sqrt(double(d) / 2), 12));
  }
}

TEST_P(ExactGpuEngine, AJoinB) {
  if (!supports_ab()) GTEST_SKIP() << GetParam() << " has no A-join-B";
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 7, 32}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet a = random_points(Distribution::Clusters, 2500, d, seed + d, 0, 5, 4, 0.4);
    const PointSet b = random_points(Distribution::Uniform, 1700, d, seed + 100 + d, 0, 5);
    const double eps = 0.3 * std::sqrt(double(d));
    expect_matches(a, &b, params(eps, 9));
    expect_matches(b, &a, params(eps, 5));
  }
}

TEST_P(ExactGpuEngine, TinyInputs) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t n : {0, 1, 2, 3, 129}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const PointSet points = random_points(Distribution::Uniform, n, 3, seed + n);
    expect_matches(points, nullptr, params(0.8));
    if (supports_ab()) {
      const PointSet other = random_points(Distribution::Uniform, 2, 3, seed + 7);
      expect_matches(points, &other, params(0.8));
      expect_matches(other, &points, params(0.8));
    }
  }
}

TEST_P(ExactGpuEngine, DuplicatesAndIdenticalPoints) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = random_points(Distribution::Uniform, 600, 4, seed);
  for (std::size_t i = 300; i < 600; ++i)  // every point of the second half repeats one of the first
    std::copy_n(points.point(i % 150), 4, points.point(i));
  expect_matches(points, nullptr, params(0.0));
  expect_matches(points, nullptr, params(0.2));
  PointSet same(700, 3);
  for (std::size_t i = 0; i < same.size(); ++i) std::fill_n(same.point(i), 3, 2.5);
  expect_matches(same, nullptr, params(0.0, 4));
  expect_matches(same, nullptr, params(1.0, 4));
}

TEST_P(ExactGpuEngine, EpsBeyondDiameterAndZero) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 700, 5, seed);
  expect_matches(points, nullptr, params(100.0));  // every pair
  expect_matches(points, nullptr, params(0.0));    // none (distinct points)
}

TEST_P(ExactGpuEngine, LatticePointsExactlyEpsApart) {
  for (std::size_t d : {2, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = lattice_points(d == 2 ? 40 : 12, d, 0.25);
    expect_matches(points, nullptr, params(0.25));
    expect_matches(points, nullptr, params(0.25 * std::sqrt(2.0)));
  }
}

TEST_P(ExactGpuEngine, HugeCoordinates) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 1500, 4, seed, -1e17, 1e17);
  expect_matches(points, nullptr, params(2e16));
}

TEST_P(ExactGpuEngine, SmallResultBuffersLoseNothing) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 5000, 3, seed, 0, 4, 3, 0.3);
  JoinParams p = params(0.3, 6);
  p.batch_bytes = 8 * 1000;  // far below the result: many overflowing launches are run again
  const VerifyReport report = check_engine(engine(), points, nullptr, p);
  EXPECT_MATCHES_ORACLE(report);
}

// Small cases that compute-sanitizer runs (memcheck, racecheck): every kernel, self and A-join-B,
// with a small result buffer so that the overflow path runs too.
TEST_P(ExactGpuEngine, Sanitizer) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 700, 5, seed, 0, 3, 3, 0.3);
  JoinParams p = params(0.5, 4);
  p.batch_bytes = 8 * 100;
  EXPECT_MATCHES_ORACLE(check_engine(engine(), a, nullptr, p));
  if (supports_ab()) {
    const PointSet b = random_points(Distribution::Uniform, 300, 5, seed + 1, 0, 3);
    EXPECT_MATCHES_ORACLE(check_engine(engine(), a, &b, p));
  }
}

TEST_P(ExactGpuEngine, StatsDescribeTheRun) {
  const PointSet points = random_points(Distribution::Uniform, 1000, 3, test_seed());
  RunResult result;
  const VerifyReport report = check_engine(engine(), points, nullptr, params(0.1), &result);
  EXPECT_MATCHES_ORACLE(report);
  EXPECT_NE(result.stats.device, "cpu");
  EXPECT_GT(result.stats.compared_pairs, 0u);
  EXPECT_GE(result.stats.phase_seconds("join"), 0.0);
  bool has_join = false;
  for (const PhaseTime& phase : result.stats.phases) has_join |= phase.name == "join";
  EXPECT_TRUE(has_join);
}

INSTANTIATE_TEST_SUITE_P(Gpu, ExactGpuEngine,
                         ::testing::Values("gpu-nlj", "gpu-inlj", "gpu-bruteforce", "gpu-kmeans"),
                         [](const auto& info) {
                           std::string name = info.param.substr(4);
                           return name;
                         });

}  // namespace
}  // namespace simjoin::testing
