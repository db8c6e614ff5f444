// The R-tree engine splits A into slabs of 2^15 points with one tree each: joins across several
// slabs must find the pairs that straddle slab borders.
#include "core/base/error.hpp"
#include "core/engines/cpu_rtree.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

TEST(RTree, SeveralSlabsFindPairsAcrossTheirBorders) {
  CpuRTreeEngine engine;
  for (std::size_t d : {1, 2, 8}) {
    const std::uint64_t seed = test_seed() + d;
    SCOPED_TRACE("seed " + std::to_string(seed) + ", d " + std::to_string(d));
    const PointSet a = random_points(Distribution::Clusters, 70000, d, seed, 0, 1, 6, 0.1);
    const PointSet b = random_points(Distribution::Uniform, 300, d, seed + 1);
    JoinParams params;
    params.eps = d == 1 ? 0.002 : 0.05 * double(d);
    RunResult result;
    EXPECT_MATCHES_ORACLE(check_engine(engine, a, &b, params, &result));
    EXPECT_GT(result.stats.pairs, 0u);
    EXPECT_EQ(result.stats.notes.front().rfind("3 packed trees", 0), 0u) << result.stats.notes.front();
  }
}

TEST(RTree, RejectsMoreThan8Dimensions) {
  CpuRTreeEngine engine;
  const PointSet points(10, 9);
  CountSink sink;
  RunControl control;
  try {
    run_engine(engine, {&points, nullptr}, JoinParams{}, sink, control);
    ADD_FAILURE() << "9 dimensions were accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Usage);
  }
}
