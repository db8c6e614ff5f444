// gpu-bruteforce through the principal-components filter (core/engines/component_filter.hpp): the
// lifted points' join on tensor cores, every candidate re-checked in all dimensions, must return exactly
// the oracle's pairs: on a curved manifold far from the origin with duplicates, in A join B of 960
// dimensions, and on pairs within 10^-6 of eps in random directions (which the filter barely prunes); with
// a far outlier, which the frame step sets apart, too; and after a cancel at each of its steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/manifold_sets.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

Engine& bruteforce() { return gpu_engine("gpu-bruteforce"); }

JoinParams params(double eps, ComponentFilterMode mode = ComponentFilterMode::Always) {
  JoinParams p;
  p.eps = eps;
  p.components = mode;
  return p;
}

bool filtered(const RunResult& result) { return note_begins(result.stats, "principal components: pairs"); }

class GpuComponentFilter : public ::testing::Test {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  // Runs the filtered join and expects the oracle's pairs, through the filter.
  void expect_filtered_oracle_pairs(const PointSet& a, const PointSet* b, double eps) {
    RunResult result;
    const std::vector<Pair> got = run_pairs(bruteforce(), a, b, params(eps), &result);
    EXPECT_TRUE(filtered(result)) << "expected the principal-components filter";
    EXPECT_MATCHES_ORACLE(compare_with_oracle(got, a, b, eps));
  }
};

TEST_F(GpuComponentFilter, ManifoldFarFromTheOriginWithDuplicatesAndAnOutlier) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = manifold_points(6000, 384, 8, 0.003, 2.5e3, seed);
  for (std::size_t i = 0; i < 100; ++i) std::copy_n(points.point(i), 384, points.point(points.size() - 1 - i));
  const double eps = eps_for_neighbours(points, 11, 100);
  expect_filtered_oracle_pairs(points, nullptr, eps);
  RunResult whole;
  EXPECT_EQ(run_pairs(bruteforce(), points, nullptr, params(eps, ComponentFilterMode::Off), &whole).size(),
            count_pairs(bruteforce(), points, nullptr, params(eps)));
  EXPECT_FALSE(filtered(whole));
  // A far outlier, which the sample (evenly spaced points) leaves out: its norm would widen the
  // tensor-core form's band past what any join can take, so the frame step sets it apart and joins it
  // in float64, and the rest still goes through the filter.
  std::fill_n(points.point(4999), 384, 2.5e3 + 1e4);
  RunResult with_outlier;
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), points, nullptr, params(eps), &with_outlier));
  EXPECT_TRUE(filtered(with_outlier)) << "the outlier took the filter away";
  EXPECT_TRUE(note_begins(with_outlier.stats, "1 far points"));
}

TEST_F(GpuComponentFilter, AJoinBInLongRows) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = manifold_points(3000, 960, 12, 0.002, -40, seed);
  const PointSet b = manifold_points(1700, 960, 12, 0.002, -40, seed);  // the same layer: the same manifold
  expect_filtered_oracle_pairs(a, &b, eps_for_neighbours(a, 21, 100));
}

TEST_F(GpuComponentFilter, PairsWithinRoundingOfEps) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const double eps = 4.0 * std::sqrt(384.0 / 8);
  expect_filtered_oracle_pairs(pairs_near_eps(1500, 384, eps, 1e-6, -3, seed), nullptr, eps);
}

// A cancel as each step of the filtered run begins (the sample, the lifting, the operands, the join)
// stops the run; the same engine then joins the points again exactly, through the filter. The sample
// reads the cancel itself: the lifting never begins after a cancel during it.
TEST_F(GpuComponentFilter, CancelAtEachStepThenRunAgain) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = manifold_points(4000, 512, 10, 0.003, 50, seed);
  const double eps = eps_for_neighbours(points, 9, 100);
  for (const std::string step : {"components", "lifting", "translate", "join"}) {
    SCOPED_TRACE("cancelled at " + step);
    bool requested = false, lifted_after = false;
    RunControl control([&](double, const std::string& phase) {
      lifted_after = lifted_after || (requested && phase == "lifting");
      if (phase == step && !requested) requested = true, control.request_cancel();
    });
    CountSink sink;
    try {
      run_engine(bruteforce(), {&points, nullptr}, params(eps), sink, control);
      ADD_FAILURE() << "no Error(Cancelled)";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::Cancelled) << error.what();
    }
    EXPECT_TRUE(requested) << "the run has no step of that name";
    if (step == "components") EXPECT_FALSE(lifted_after) << "the sample went on after the cancel";
    expect_filtered_oracle_pairs(points, nullptr, eps);
  }
}

// A small case for compute-sanitizer: the lifting kernel and the lifted join, self and A join B.
TEST_F(GpuComponentFilter, Sanitizer) {
  const std::uint64_t seed = test_seed();
  const PointSet a = manifold_points(700, 320, 6, 0.003, 1.0, seed);
  const PointSet b = manifold_points(300, 320, 6, 0.003, 1.0, seed);
  const double eps = eps_for_neighbours(a, 9, 100);
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), a, nullptr, params(eps)));
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), a, &b, params(eps)));
}

}  // namespace
}  // namespace simjoin::testing
