// Every GPU engine: the engine contract (tests/core/engine_contract.hpp), and what only the GPU has:
// result batches far smaller than the result, stats naming the device, a large join, and the small
// cases compute-sanitizer runs. Every case skips, naming the reason, where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/core/engine_contract.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(GpuEngines, EngineContract, ::testing::ValuesIn(contract_cases(gpu_registry())),
                         contract_case_name);

class GpuEngineTest : public ::testing::TestWithParam<ContractCase> {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  Engine& engine() { return gpu_engine(GetParam().engine); }
  JoinParams params(double eps) {
    JoinParams p;
    p.eps = eps;
    p.seed = test_seed();
    return p;
  }
  // Exact engines must match the oracle; an approximate one may only miss pairs.
  void expect_correct(const PointSet& a, const PointSet* b, const JoinParams& p, RunResult* result = nullptr) {
    const VerifyReport report = check_engine(engine(), a, b, p, result);
    if (engine().capabilities().exact)
      EXPECT_MATCHES_ORACLE(report);
    else
      EXPECT_TRUE(report.extra.empty() && report.duplicates == 0) << report.summary();
  }
};

TEST_P(GpuEngineTest, SmallResultBuffersLoseNothing) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 5000, 3, seed, 0, 4, 3, 0.3);
  JoinParams p = params(0.3);
  p.batch_bytes = 8 * 1000;  // far below the result: many batches, overflowing launches run again
  expect_correct(points, nullptr, p);
}

TEST_P(GpuEngineTest, StatsDescribeTheRun) {
  const PointSet points = random_points(Distribution::Uniform, 1000, 3, test_seed());
  RunResult result;
  expect_correct(points, nullptr, params(0.1), &result);
  EXPECT_NE(result.stats.device, "cpu");
  EXPECT_GT(result.stats.compared_pairs, 0u);
  bool has_join = false;
  for (const PhaseTime& phase : result.stats.phases) has_join |= phase.name == "join";
  EXPECT_TRUE(has_join);
}

// The reference's pairs of LargeUniformJoin's points, the same for every engine (one seed a process):
// computed once, as its brute force over 200,000 points takes about 40 s on the GPU machine.
const std::vector<Pair>& large_uniform_pairs(const PointSet& points, double eps) {
  static const std::vector<Pair> pairs = oracle_pairs(points, nullptr, eps);
  return pairs;
}

TEST_P(GpuEngineTest, LargeUniformJoin) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::size_t n = 200'000;
  const PointSet points = random_points(Distribution::Uniform, n, 2, seed);
  const JoinParams p = params(std::sqrt(30 / (double(n) * M_PI)));  // about 30 neighbours
  const VerifyReport report =
      compare_pairs(run_pairs(engine(), points, nullptr, p), large_uniform_pairs(points, p.eps));
  if (engine().capabilities().exact)
    EXPECT_MATCHES_ORACLE(report);
  else
    EXPECT_TRUE(report.extra.empty() && report.duplicates == 0) << report.summary();
}

// Small cases that compute-sanitizer runs (memcheck, racecheck): every kernel, self-join and A join
// B, with a small result buffer so that the overflow path runs too.
TEST_P(GpuEngineTest, Sanitizer) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 700, 5, seed, 0, 3, 3, 0.3);
  JoinParams p = params(0.5);
  p.batch_bytes = 8 * 100;
  expect_correct(a, nullptr, p);
  if (engine().capabilities().ab_join) {
    const PointSet b = random_points(Distribution::Uniform, 300, 5, seed + 1, 0, 3);
    expect_correct(a, &b, p);
  }
}

INSTANTIATE_TEST_SUITE_P(GpuEngines, GpuEngineTest, ::testing::ValuesIn(contract_cases(gpu_registry())),
                         contract_case_name);

}  // namespace
}  // namespace simjoin::testing
