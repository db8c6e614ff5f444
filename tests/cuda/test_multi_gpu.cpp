// gpu-grid and gpu-kmeans split across GPUs: exact against the oracle whether the shares run on one GPU
// (named several times) or on two, progress counts all shares, and wrong ordinals are usage errors.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/frame/join_frame.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

const char* const kSplittingEngines[] = {"gpu-grid", "gpu-kmeans"};

std::size_t gpu_count() { return query_gpus().devices.size(); }

// Self-joins (uniform and clustered, two dimensionalities), an A-join-B, and a count, on `devices`.
void expect_exact_on(const std::vector<int>& devices) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* name : kSplittingEngines) {
    SCOPED_TRACE(name);
    Engine& engine = gpu_engine(name);
    JoinParams params;
    params.devices = devices;
    params.batch_bytes = 1 << 16;  // several batches per share
    const PointSet uniform = random_points(Distribution::Uniform, 30000, 3, seed);
    const PointSet clustered = random_points(Distribution::Clusters, 20000, 2, seed + 1);
    const PointSet other = random_points(Distribution::Uniform, 7000, 3, seed + 2);
    params.eps = 0.03;
    RunResult result;
    EXPECT_MATCHES_ORACLE(check_engine(engine, uniform, nullptr, params, &result));
    EXPECT_NE(result.stats.device.find(" + "), std::string::npos) << result.stats.device;
    bool split_noted = false;
    for (const std::string& note : result.stats.notes)
      split_noted = split_noted || note.find(std::to_string(devices.size()) + " equal shares") != std::string::npos;
    EXPECT_TRUE(split_noted);
    EXPECT_MATCHES_ORACLE(check_engine(engine, uniform, &other, params));
    params.eps = 0.01;
    EXPECT_MATCHES_ORACLE(check_engine(engine, clustered, nullptr, params));
    EXPECT_EQ(count_pairs(engine, clustered, nullptr, params), oracle_pairs(clustered, nullptr, 0.01).size());
  }
}

TEST(MultiGpu, SharesOnOneGpuMatchTheOracle) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  expect_exact_on({0, 0, 0});
}

TEST(MultiGpu, TwoGpusMatchTheOracle) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  if (gpu_count() < 2) GTEST_SKIP() << "needs two GPUs; this machine has " << gpu_count();
  expect_exact_on({0, 1});
  expect_exact_on({1, 0, 1});
}

// Small enough for compute-sanitizer (scripts/device-check runs every *Sanitizer* test under it).
TEST(MultiGpu, SanitizerSmallSplit) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 1500, 3, seed);
  const PointSet b = random_points(Distribution::Uniform, 700, 3, seed + 1);
  std::vector<int> devices = {0, 0};
  if (gpu_count() > 1) devices = {0, 1};
  for (const char* name : kSplittingEngines) {
    SCOPED_TRACE(name);
    JoinParams params;
    params.eps = 0.05;
    params.devices = devices;
    params.batch_bytes = 1 << 12;
    EXPECT_MATCHES_ORACLE(check_engine(gpu_engine(name), a, nullptr, params));
    EXPECT_MATCHES_ORACLE(check_engine(gpu_engine(name), a, &b, params));
  }
}

// Runs the engine itself (not run_engine, which reports 1 at the end) on two shares of GPU 0, count only.
void run_two_shares(const char* name, const PointSet& points, RunControl& control) {
  const JoinFrame frame(points, nullptr, 0.01);
  const PointSet32 framed = frame.to_frame(points);
  JoinParams params;
  params.eps = 0.01;
  params.devices = {0, 0};
  CountSink sink;
  gpu_engine(name).run({&framed, nullptr, &points, nullptr, frame.band(), frame.search_radius()}, params, sink,
                       control);
}

TEST(MultiGpu, ProgressCountsEveryShare) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const PointSet points = random_points(Distribution::Uniform, 20000, 2, test_seed());
  for (const char* name : kSplittingEngines) {
    SCOPED_TRACE(name);
    std::vector<double> seen;
    std::mutex mutex;
    RunControl control([&](double fraction, const std::string&) {
      std::lock_guard lock(mutex);
      seen.push_back(fraction);
    });
    run_two_shares(name, points, control);
    EXPECT_DOUBLE_EQ(control.progress(), 1.0);
    ASSERT_FALSE(seen.empty());
    for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  }
}

TEST(MultiGpu, CancelStopsEveryShare) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const PointSet points = random_points(Distribution::Uniform, 20000, 2, test_seed());
  for (const char* name : kSplittingEngines) {
    SCOPED_TRACE(name);
    RunControl control;
    control.request_cancel();
    try {
      run_two_shares(name, points, control);
      ADD_FAILURE() << "no Error(Cancelled)";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::Cancelled);
    }
  }
}

TEST(MultiGpu, UnknownGpuIsAUsageError) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const PointSet points = random_points(Distribution::Uniform, 100, 2, test_seed());
  const int missing = int(gpu_count());
  for (const char* name : {"gpu-grid", "gpu-kmeans", "gpu-nlj"}) {
    SCOPED_TRACE(name);
    JoinParams params;
    params.eps = 0.1;
    params.devices = {0, missing};
    CountSink sink;
    RunControl control;
    try {
      run_engine(gpu_engine(name), {&points, nullptr}, params, sink, control);
      ADD_FAILURE() << "no error for GPU " << missing;
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(error.what()).find("GPU " + std::to_string(missing) + " does not exist"), std::string::npos)
          << error.what();
    }
  }
}

}  // namespace
}  // namespace simjoin::testing
