// gpu-rejoin: after every update batch the merged pair list must equal a fresh self-join of all points
// so far (the float64 oracle, pair for pair), with and without reclustering; a cancelled step changes
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/base/error.hpp"
#include "core/report/verify.hpp"
#include "cuda/gpu_engines.hpp"
#include "cuda/rejoin.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

class GpuRejoin : public ::testing::Test {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
};

PointSet concatenate(const PointSet& a, const PointSet& b) {
  Coordinates<double> coords(a.data(), a.data() + a.size() * a.dims());
  coords.insert(coords.end(), b.data(), b.data() + b.size() * b.dims());
  return PointSet(a.size() + b.size(), a.dims(), std::move(coords));
}

// The session's pairs against the oracle over `all`.
void expect_exact(const RejoinSession& session, const PointSet& all, double eps) {
  ASSERT_EQ(session.size(), all.size());
  std::vector<Pair> pairs = session.pairs();
  std::sort(pairs.begin(), pairs.end());
  EXPECT_MATCHES_ORACLE(compare_pairs(pairs, oracle_pairs(all, nullptr, eps)));
}

// Initial points, then batches drawn around other cluster centres (seed + batch), checked after each.
void run_batches(double threshold, bool expect_recluster, std::size_t dims, Distribution kind) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", d " + std::to_string(dims) + ", threshold " +
               std::to_string(threshold));
  const double eps = dims <= 3 ? 0.3 : 0.8;
  PointSet all = random_points(kind, 4000, dims, seed, 0, 10, 6, 0.6);
  RejoinSession session(threshold, seed);
  const RejoinBatch first = session.initial(all, eps, 8);
  EXPECT_EQ(first.new_points, all.size());
  EXPECT_EQ(first.total_pairs, first.pairs_added);
  EXPECT_GT(first.stats.replicated_points, 0u);
  expect_exact(session, all, eps);
  for (std::size_t b = 1; b <= 3; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    const PointSet batch = random_points(kind, 300 * b + 7, dims, seed + b, 0, 10 + 3.0 * b, 4, 0.6);
    const std::uint64_t before = session.pairs().size();
    const RejoinBatch step = session.update(batch);
    all = concatenate(all, batch);
    EXPECT_EQ(step.new_points, batch.size());
    EXPECT_EQ(step.total_pairs, before + step.pairs_added);
    EXPECT_EQ(step.total_pairs, session.pairs().size());
    EXPECT_GT(step.displacement, 0.0);
    EXPECT_EQ(step.reclustered, expect_recluster);
    EXPECT_EQ(step.reclustered, step.displacement > threshold);
    EXPECT_LT(step.stats.compared_pairs, all.size() * (all.size() - 1) / 2) << "joined more than new pairs";
    expect_exact(session, all, eps);
  }
}

TEST_F(GpuRejoin, BatchesWithoutReclustering) {
  for (std::size_t dims : {2, 5, 8}) run_batches(1e30, false, dims, Distribution::Clusters);
  run_batches(1e30, false, 3, Distribution::Uniform);
}

TEST_F(GpuRejoin, BatchesReclusteringEveryTime) {
  for (std::size_t dims : {3, 8}) run_batches(0, true, dims, Distribution::Clusters);
  run_batches(0, true, 4, Distribution::Uniform);
}

// Duplicates of held points, all-identical batches, a single point, an empty batch, eps 0 and lattice
// points exactly eps apart.
TEST_F(GpuRejoin, EdgeCases) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (double eps : {0.0, 1.0}) {
    SCOPED_TRACE("eps " + std::to_string(eps));
    PointSet all = lattice_points(6, 2, eps == 0 ? 1.0 : eps);
    RejoinSession session(0.5, seed);
    session.initial(all, eps, 3);
    expect_exact(session, all, eps);
    const std::vector<PointSet> batches = {
        PointSet(3, 2, Coordinates<double>(all.data(), all.data() + 6)),  // copies of held points
        PointSet(1, 2, {2.5, 2.5}),
        PointSet(0, 2),
        PointSet(4, 2, Coordinates<double>(8, 1.0)),  // all identical
        lattice_points(3, 2, eps == 0 ? 1.0 : eps),
    };
    for (const PointSet& batch : batches) {
      const RejoinBatch step = session.update(batch);
      all = concatenate(all, batch);
      EXPECT_EQ(step.new_points, batch.size());
      expect_exact(session, all, eps);
    }
  }
  RejoinSession session(1, seed);
  EXPECT_THROW(session.update(PointSet(1, 2, {0.0, 0.0})), Error);  // no initial points yet
  session.initial(PointSet(1, 3, {0.0, 0.0, 0.0}), 0.5, 4);         // k clamped to n
  try {
    session.update(PointSet(1, 2, {0.0, 0.0}));
    ADD_FAILURE() << "a batch of other dimensionality was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
  }
  EXPECT_THROW(RejoinSession(-1), Error);
}

// Runs `step` with a control that cancels it at the first progress call past `after`. Returns true
// when the step was cancelled; false when it finished, which is right only when the cancel came at
// its end (progress 1).
// A cancelled start leaves the session unstarted, and a cancelled step (early or late in its join, with
// or without reclustering) leaves it as before the step: later steps give exactly a fresh self-join of
// the points that were accepted.
TEST_F(GpuRejoin, CancelledStepLeavesTheSessionUnchanged) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const double eps = 0.3;
  for (double threshold : {1e30, 0.0}) {
    SCOPED_TRACE("threshold " + std::to_string(threshold));
    PointSet all = random_points(Distribution::Clusters, 20000, 3, seed, 0, 10, 6, 0.6);
    RejoinSession session(threshold, seed);
    ASSERT_TRUE(cancel_past(-1, [&](RunControl& control) { session.initial(all, eps, 8, &control); }));
    EXPECT_EQ(session.size(), 0u);
    EXPECT_THROW(session.update(all), Error) << "a cancelled start left the session started";
    session.initial(all, eps, 8);
    for (double after : {-1.0, 0.5}) {
      SCOPED_TRACE("cancelled past " + std::to_string(after));
      const PointSet batch = random_points(Distribution::Clusters, 5000, 3, seed + 10, 0, 13, 4, 0.6);
      const std::vector<Pair> before = session.pairs();
      if (cancel_past(after, [&](RunControl& control) { session.update(batch, &control); })) {
        EXPECT_EQ(session.size(), all.size());
        EXPECT_TRUE(session.pairs() == before) << "a cancelled step changed the pairs";
      } else {
        all = concatenate(all, batch);  // cancelled at its end: the step completed
      }
    }
    const PointSet batch = random_points(Distribution::Clusters, 3000, 3, seed + 20, 0, 12, 4, 0.6);
    session.update(batch);
    all = concatenate(all, batch);
    expect_exact(session, all, eps);
  }
}

TEST_F(GpuRejoin, SanitizerSmallCase) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet all = random_points(Distribution::Clusters, 600, 3, seed, 0, 5, 3, 0.4);
  RejoinSession session(0.01, seed);
  session.initial(all, 0.4, 4);
  for (std::size_t b = 0; b < 2; ++b) {
    const PointSet batch = random_points(Distribution::Uniform, 150, 3, seed + 1 + b, 0, 6);
    session.update(batch);
    all = concatenate(all, batch);
  }
  expect_exact(session, all, 0.4);
}

}  // namespace
}  // namespace simjoin::testing
