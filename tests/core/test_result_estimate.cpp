#include <gtest/gtest.h>

#include "core/base/error.hpp"
#include "core/base/memory.hpp"
#include "core/engines/result_estimate.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

TEST(ResultEstimate, ExactOnSetsNoLargerThanTheSample) {
  const PointSet a = random_points(Distribution::Clusters, 3000, 3, test_seed(), 0, 1, 5, 0.05);
  const PointSet b = random_points(Distribution::Uniform, 2000, 3, test_seed() + 1);
  RunControl control;
  EXPECT_EQ(estimate_result_pairs({&a, nullptr}, 0.05, control), double(oracle_pairs(a, nullptr, 0.05).size()));
  EXPECT_EQ(estimate_result_pairs({&a, &b}, 0.1, control), double(oracle_pairs(a, &b, 0.1).size()));
}

TEST(ResultEstimate, CloseOnLargeSets) {
  SCOPED_TRACE(test_seed());
  const PointSet a = random_points(Distribution::Uniform, 200000, 2, test_seed());
  RunControl control;
  const double eps = 0.02;
  const double estimate = estimate_result_pairs({&a, nullptr}, eps, control);
  CountSink exact;
  JoinParams params;
  params.eps = eps;
  EngineRegistry registry;
  register_cpu_engines(registry);
  run_engine(registry.get("cpu-grid"), {&a, nullptr}, params, exact, control);
  EXPECT_NEAR(estimate, double(exact.count()), 0.05 * double(exact.count()));
}

TEST(ResultEstimate, RefusesWhatCannotFit) {
  EXPECT_NO_THROW(require_pairs_fit_in_memory(1000, "way out"));
  try {
    require_pairs_fit_in_memory(double(available_memory_bytes()), "Use --count-only.");
    FAIL() << "expected a refusal";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::OutOfMemory);
    EXPECT_NE(std::string(error.what()).find("Use --count-only."), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("available"), std::string::npos) << error.what();
  }
}
