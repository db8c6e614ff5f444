// Every exact GPU engine equals the float64 oracle pair for pair, where float32 alone cannot decide:
// coordinates far from the origin, pairs exactly eps apart, pairs within 1e-7 of eps, A and B with
// different offsets, many dimensions. Every GPU engine cancelled at any point leaves nothing behind for
// the next run; the nested-loop result buffers follow the result, not n.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/grid_outliers.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/core/tie_sets.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

class GpuExact : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  Engine& engine() { return gpu_engine(GetParam()); }
  bool supports_ab() { return engine().capabilities().ab_join; }
  JoinParams params(double eps) {
    JoinParams p;
    p.eps = eps;
    p.seed = test_seed();
    return p;
  }
  // Pairs and count-only both equal the oracle's, pair for pair.
  void expect_exact(const PointSet& a, const PointSet* b, double eps) {
    const VerifyReport report = check_engine(engine(), a, b, params(eps));
    EXPECT_MATCHES_ORACLE(report);
    EXPECT_EQ(count_pairs(engine(), a, b, params(eps)), oracle_pairs(a, b, eps).size()) << "count-only";
  }
};

TEST_P(GpuExact, LargeOffset) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // float32 spacing at 4.5e6 is 0.5: rounding the file's values directly would lose most pairs.
  const PointSet points = shifted(random_points(Distribution::Uniform, 20000, 2, seed, 0, 200), {500000, 4500000});
  expect_exact(points, nullptr, 0.5);
}

TEST_P(GpuExact, OffsetLatticeExactlyEpsApart) {
  for (std::size_t d : {2, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet lattice = shifted(lattice_points(d == 2 ? 60 : 15, d, 1.0), std::vector<double>(d, 1e6));
    expect_exact(lattice, nullptr, 1.0);
  }
}

TEST_P(GpuExact, NearTies) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3, 8}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    expect_exact(pairs_near_eps(1500, d, 0.5, 1e-7, -3, seed + d), nullptr, 0.5);
    expect_exact(pairs_near_eps(1500, d, 0.5, 1e-7, 1000, seed + 2 * d), nullptr, 0.5);
  }
}

TEST_P(GpuExact, AJoinBWithDifferentOffsets) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = shifted(random_points(Distribution::Uniform, 8000, 2, seed, 0, 100), {1e6, 2e6});
  const PointSet b =
      shifted(random_points(Distribution::Clusters, 5000, 2, seed + 1, 0, 100, 6, 3), {1e6 + 50, 2e6 - 30});
  if (!supports_ab()) return expect_ab_join_refused(engine(), a, b, params(0.7));
  expect_exact(a, &b, 0.7);
  expect_exact(b, &a, 0.7);
}

TEST_P(GpuExact, ManyDimensionsClustered) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {8, 32}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Clusters, 3000, d, seed + d, 0, 10, 5, 0.5);
    // Cluster members lie about 0.5 sqrt(2 d) apart.
    expect_exact(points, nullptr, 0.4 * std::sqrt(2.0 * double(d)));
  }
}

// Far outliers (in pairs within eps, and one at 1e15) and a tail leading out of the unit cube:
// run_engine joins the outliers and the tail's end apart in float64; the engine joins the rest.
TEST_P(GpuExact, FarOutliersAndATail) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = with_tail(with_outliers(5000, d, seed + d, 6, true), 30, 0.06);
    expect_exact(points, nullptr, 0.1);
    if (supports_ab()) {
      const PointSet other = with_outliers(800, d, seed + 10 + d, 4, true);
      expect_exact(points, &other, 0.1);
      expect_exact(other, &points, 0.1);
    }
  }
}

// Small cases for compute-sanitizer (memcheck, racecheck): offset self-join, near ties, A join B.
TEST_P(GpuExact, Sanitizer) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = shifted(random_points(Distribution::Uniform, 400, 3, seed, 0, 5), {1e6, -2e6, 0});
  expect_exact(a, nullptr, 0.6);
  expect_exact(pairs_near_eps(150, 5, 0.5, 1e-7, 100, seed + 1), nullptr, 0.5);
  if (supports_ab()) {
    const PointSet b = shifted(random_points(Distribution::Uniform, 300, 3, seed + 2, 0, 5), {1e6 + 1, -2e6, 0});
    expect_exact(a, &b, 0.6);
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::erase(name, '-');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Engines, GpuExact, ::testing::ValuesIn(exact_gpu_engine_names()), test_name);

// Every GPU engine, approximate ones included.
std::vector<std::string> gpu_engine_names() {
  std::vector<std::string> names;
  for (const auto& engine : gpu_registry().engines()) names.push_back(engine->name());
  return names;
}

class GpuCancel : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  Engine& engine() { return gpu_engine(GetParam()); }
};

// Runs cancelled from the progress callback at its first call (before any GPU work), at the first
// report (result batches in flight), half-way and late; a cancel requested before the end takes
// effect (one requested at the final report, progress 1, may let the run finish). After each, the
// same engine object on other data: exact engines give exactly the oracle's pairs, approximate ones
// no pair beyond them, and nothing of the cancelled run is delivered.
TEST_P(GpuCancel, CancelAtAnyPointThenRerun) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet first = random_points(Distribution::Uniform, 60000, 2, seed, 0, 100);
  JoinParams p;
  p.eps = 0.4;
  p.seed = seed;
  p.batch_bytes = 1 << 14;  // many small result batches
  for (double after : {-1.0, 0.0, 0.5, 0.8}) {
    SCOPED_TRACE("cancelled at the first progress call past " + std::to_string(after));
    PairListSink discarded;
    cancel_past(after, [&](RunControl& control) { run_engine(engine(), {&first, nullptr}, p, discarded, control); });
    const PointSet second = shifted(random_points(Distribution::Clusters, 20000, 2, seed + 1, 0, 100, 8, 2), {3e5, 0});
    const VerifyReport report = check_engine(engine(), second, nullptr, p);
    if (engine().capabilities().exact)
      EXPECT_MATCHES_ORACLE(report);
    else
      EXPECT_TRUE(report.extra.empty() && report.duplicates == 0) << report.summary();
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, GpuCancel, ::testing::ValuesIn(gpu_engine_names()), test_name);

// The nested-loop engines size their result buffer by the result, not by n: a large input with few
// pairs takes little device memory (the worst-case sizing took 2 KB a point for gpu-nlj, 512 bytes
// for gpu-inlj), and a buffer too small for one work item's pairs grows.
TEST(GpuNestedLoopOutput, BufferFollowsTheResult) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet sparse = random_points(Distribution::Uniform, 400000, 2, seed, 0, 1e4);
  const PointSet dense = random_points(Distribution::Clusters, 3000, 2, seed + 1, 0, 10, 3, 0.5);
  for (const char* name : {"gpu-nlj", "gpu-inlj", "gpu-bruteforce"}) {
    SCOPED_TRACE(name);
    JoinParams p;
    p.eps = 1.0;
    p.batch_bytes = 8 << 20;
    const std::uint64_t free_before = query_gpus().devices.at(0).free_bytes;
    std::uint64_t lowest = free_before;
    RunControl control(
        [&lowest](double, const std::string&) { lowest = std::min(lowest, query_gpus().devices.at(0).free_bytes); });
    PairListSink sink;
    run_engine(gpu_engine(name), {&sparse, nullptr}, p, sink, control);
    EXPECT_LT(free_before - lowest, sparse.size() * 128) << "device bytes in use during the join";
    p.batch_bytes = sizeof(Pair);  // one pair: every work item overflows it
    const VerifyReport report = check_engine(gpu_engine(name), dense, nullptr, p);
    EXPECT_MATCHES_ORACLE(report);
  }
}

}  // namespace
}  // namespace simjoin::testing
