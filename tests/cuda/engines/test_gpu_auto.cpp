// gpu-auto's choice from the join's shape (runs everywhere: choosing needs no GPU), `auto` preferring
// it where a GPU is present, and its runs matching the oracle (with the other exact GPU engines in
// tests/cuda/test_gpu_exact.cpp).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <memory>

#include "app/registry/every_engine.hpp"
#include "core/engines/cpu_auto.hpp"
#include "cuda/engines/gpu_auto.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

struct ShapeCase {
  const char* workload;
  JoinShape shape;
  const char* engine;
};

class GpuAutoChoice : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(GpuAutoChoice, PicksTheBenchmarksFastestEngine) {
  const gpu::GpuAutoEngine chooser(std::make_shared<gpu::GpuResources>());
  const ShapeCase& c = GetParam();
  const ChoosingEngine::Choice choice = chooser.choose(c.shape);
  EXPECT_EQ(choice.engine->name(), c.engine) << c.workload << ": " << choice.reason;
  EXPECT_FALSE(choice.reason.empty());
}

// The rows of docs/benchmarks.md's H100 comparison (n, queries, d, self-join, widest extent, eps).
INSTANTIATE_TEST_SUITE_P(
    Workloads, GpuAutoChoice,
    ::testing::Values(ShapeCase{"W1 clustered 8-D", {500000, 500000, 8, true, 20, 0.5}, "gpu-kmeans"},
                      ShapeCase{"W2 uniform 2-D", {2000000, 2000000, 2, true, 100, 0.2}, "gpu-grid"},
                      ShapeCase{"W3 uniform 6-D", {2000000, 2000000, 6, true, 100, 8}, "gpu-grid"},
                      ShapeCase{"W4 uniform 2-D", {10000000, 10000000, 2, true, 100, 0.1}, "gpu-grid"},
                      ShapeCase{"W5 clustered 32-D", {1000000, 1000000, 32, true, 20, 0.1}, "gpu-kmeans"},
                      ShapeCase{"128-D unit vectors", {1000000, 1000000, 128, true, 2, 0.06}, "gpu-kmeans"},
                      ShapeCase{"small", {2000, 2000, 3, true, 1, 0.05}, "gpu-bruteforce"},
                      ShapeCase{"eps beyond the extent", {100000, 100000, 3, true, 1, 5}, "gpu-bruteforce"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// Whether a GPU is there, known apart from query_gpus(), which `auto` consults: in the GPU-required
// mode by definition, else by the CUDA runtime's own device count.
bool gpu_present() {
  int count = 0;
  return gpu_required() || (cudaGetDeviceCount(&count) == cudaSuccess && count > 0);
}

TEST(GpuAuto, AutoPrefersItOnAGpu) {
  EngineRegistry registry;
  register_every_engine(registry);
  const auto& automatic = dynamic_cast<const CpuAutoEngine&>(registry.get("auto"));
  const JoinShape w2{2000000, 2000000, 2, true, 100, 0.2};
  EXPECT_EQ(automatic.choose(w2).engine->name(), gpu_present() ? "gpu-grid" : "cpu-grid");
}

TEST(GpuAuto, RunsExactly) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  JoinParams params;
  params.eps = 0.3;
  params.seed = seed;
  for (std::size_t d : {2, 16}) {
    const PointSet points = random_points(Distribution::Clusters, 6000, d, seed + d, 0, 1, 5, 0.05);
    RunResult result;
    EXPECT_MATCHES_ORACLE(check_engine(gpu_engine("gpu-auto"), points, nullptr, params, &result));
    ASSERT_FALSE(result.stats.notes.empty());
    EXPECT_EQ(result.stats.notes.front().rfind("gpu-auto chose gpu-", 0), 0u) << result.stats.notes.front();
  }
}

}  // namespace
}  // namespace simjoin::testing
