// gpu-grid specifics: unicomp, result batching with overflow, high dimensions, the grid structure.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "cuda/detail/grid_layout.hpp"
#include "tests/core/grid_check.hpp"
#include "tests/core/grid_outliers.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

class GpuGridTest : public ::testing::Test {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  Engine& engine() { return gpu_engine("gpu-grid"); }
};

std::string notes_of(const RunResult& result) {
  std::string all;
  for (const std::string& note : result.stats.notes) all += note + "\n";
  return all;
}

TEST_F(GpuGridTest, UnicompTestsEachPairOnce) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3, 4}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Uniform, 20000, d, seed + d);
    JoinParams params;
    params.eps = d == 2 ? 0.01 : 0.05;
    RunResult with, without;
    params.unicomp = true;
    EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params, &with));
    params.unicomp = false;
    EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params, &without));
    EXPECT_EQ(with.stats.pairs, without.stats.pairs);
    // Without unicomp every candidate pair is tested from both sides: exactly twice as many tests.
    EXPECT_EQ(2 * with.stats.compared_pairs, without.stats.compared_pairs);
  }
}

TEST_F(GpuGridTest, OverflowingBatchesAreRerunSplit) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Four places, 1000 copies each, and the smallest batch memory: with unicomp the first queries of a
  // place find the most pairs, so batches of equal query counts overflow and are re-run in parts.
  PointSet points(4000, 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points.point(i)[0] = double(i % 4) * 10;
    points.point(i)[1] = double(seed % 7);
  }
  JoinParams params;
  params.eps = 0.5;
  params.batch_bytes = 1;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params, &result));
  EXPECT_GT(result.stats.pairs, 100u * points.size());
  const std::string notes = notes_of(result);
  std::smatch match;
  ASSERT_TRUE(std::regex_search(notes, match, std::regex(R"(result batches: (\d+) \((\d+) re-run)")));
  EXPECT_GE(std::stoul(match[1]), 3u);
  EXPECT_GT(std::stoul(match[2]), 0u) << notes;

  const PointSet other = random_points(Distribution::Clusters, 3000, 2, seed + 1, 0, 30, 4, 0.3);
  EXPECT_MATCHES_ORACLE(check_engine(engine(), points, &other, params));
}

TEST_F(GpuGridTest, HighDimensionsIndexSubset) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {20, 64}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Clusters, 4000, d, seed + d, 0, 10, 8, 0.3);
    JoinParams params;
    params.eps = 0.45 * std::sqrt(double(d));
    RunResult result;
    EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params, &result));
    EXPECT_GT(result.stats.pairs, 0u);
    EXPECT_NE(notes_of(result).find("of " + std::to_string(d) + " dimensions"), std::string::npos);
    ASSERT_TRUE(result.grid);
    EXPECT_LE(result.grid->indexed_dims.size(), std::size_t(gpu::kMaxIndexedDims));
  }
}

TEST_F(GpuGridTest, GridStructureDescribesTheCells) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 5000, 3, seed, 0, 10, 4, 0.5);
  JoinParams params;
  params.eps = 0.3;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params, &result));
  ASSERT_TRUE(result.grid);
  const GridStructure& grid = *result.grid;
  ASSERT_FALSE(grid.indexed_dims.empty());
  EXPECT_GE(grid.cell_width, params.eps);
  expect_valid_grid(grid, points);
}

// Far outliers: cells are keyed by their coordinates, so the outliers cost a few cells, never wider
// ones, and run_engine joins them apart from the frame. The join stays exact, and the distance tests
// stay as they are without the outliers (within 1 %).
TEST_F(GpuGridTest, FarOutliersJoinExactly) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3})
    for (bool huge : {false, true}) {
      SCOPED_TRACE("d = " + std::to_string(d) + (huge ? " with a point at 1e15" : ""));
      const PointSet points = with_outliers(2000, d, seed + d, 6, huge);
      const PointSet other = with_outliers(500, d, seed + 10 + d, 4, huge);
      JoinParams params;
      params.eps = 0.05;
      for (bool unicomp : {true, false}) {
        params.unicomp = unicomp;
        EXPECT_MATCHES_ORACLE(check_engine(engine(), points, nullptr, params));
      }
      EXPECT_MATCHES_ORACLE(check_engine(engine(), points, &other, params));
    }
}

TEST_F(GpuGridTest, FarOutliersKeepTheTestCount) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet plain = with_outliers(2000, d, seed + d, 0, false);
    const PointSet skewed = with_outliers(2000, d, seed + d, 6, true);
    const PointSet queries = with_outliers(500, d, seed + 10 + d, 0, false);
    for (const PointSet* b : {static_cast<const PointSet*>(nullptr), &queries}) {
      const std::uint64_t before = compared_pairs(engine(), plain, b, 0.05);
      const std::uint64_t after = compared_pairs(engine(), skewed, b, 0.05);
      EXPECT_LE(double(after), 1.01 * double(before)) << (b ? "A join B" : "self-join");
    }
  }
}

TEST_F(GpuGridTest, ReportsPhasesAndDevice) {
  const PointSet points = random_points(Distribution::Uniform, 10000, 2, test_seed());
  JoinParams params;
  params.eps = 0.02;
  PairListSink sink;
  RunControl control;
  const RunResult result = run_engine(engine(), {&points, nullptr}, params, sink, control);
  EXPECT_NE(result.stats.device, "cpu");
  ASSERT_GT(sink.pairs().size(), 1000u) << "too few pairs for an output transfer to time";
  // Each phase once, with the time it took (phase_seconds alone would read 0 for a missing phase).
  for (const char* phase : {"upload", "build", "estimate", "join", "output transfer"}) {
    const auto named = [&](const PhaseTime& p) { return p.name == phase; };
    EXPECT_EQ(std::count_if(result.stats.phases.begin(), result.stats.phases.end(), named), 1) << phase;
    EXPECT_GT(result.stats.phase_seconds(phase), 0.0) << phase;
  }
}

TEST_F(GpuGridTest, CancelStopsTheRun) {
  const PointSet points = random_points(Distribution::Uniform, 10000, 2, test_seed());
  JoinParams params;
  params.eps = 0.02;
  CountSink sink;
  RunControl control;
  control.request_cancel();
  try {
    run_engine(engine(), {&points, nullptr}, params, sink, control);
    FAIL() << "no Error(Cancelled)";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled);
  }
}

}  // namespace
}  // namespace simjoin::testing
