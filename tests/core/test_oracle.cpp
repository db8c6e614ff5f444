// The oracle (cpu-bruteforce) against an independent, deliberately naive computation and hand-counted
// cases, and the verify helper.
#include <cmath>

#include "core/base/error.hpp"
#include "core/engines/cpu_bruteforce.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
// Independent reference: long double, straight loops, no shared code with the engine.
std::vector<Pair> naive_pairs(const PointSet& a, const PointSet* b, double eps) {
  std::vector<Pair> pairs;
  const PointSet& q = b ? *b : a;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = b ? 0 : i + 1; j < q.size(); ++j) {
      long double sum = 0;
      for (std::size_t k = 0; k < a.dims(); ++k) {
        const long double diff = (long double)a.point(i)[k] - (long double)q.point(j)[k];
        sum += diff * diff;
      }
      if (sum <= (long double)eps * (long double)eps) pairs.push_back({std::uint32_t(i), std::uint32_t(j)});
    }
  return pairs;
}

std::vector<Pair> bruteforce_pairs(const PointSet& a, const PointSet* b, double eps) {
  CpuBruteForceEngine oracle;
  JoinParams params;
  params.eps = eps;
  return run_pairs(oracle, a, b, params);
}
}  // namespace

class OracleDims : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OracleDims, SelfJoinMatchesNaiveLoop) {
  const std::size_t d = GetParam();
  const std::uint64_t seed = test_seed() + d;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 700, d, seed, 0, 1, 4, 0.1);
  const double eps = 0.15 * std::sqrt(double(d));
  const auto expected = naive_pairs(points, nullptr, eps);
  ASSERT_GT(expected.size(), 0u);
  EXPECT_EQ(bruteforce_pairs(points, nullptr, eps), expected);
}

TEST_P(OracleDims, ABJoinMatchesNaiveLoop) {
  const std::size_t d = GetParam();
  const std::uint64_t seed = test_seed() + 100 + d;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Uniform, 400, d, seed);
  const PointSet b = random_points(Distribution::Uniform, 300, d, seed + 1);
  const double eps = 0.3 * std::sqrt(double(d));
  const auto expected = naive_pairs(a, &b, eps);
  ASSERT_GT(expected.size(), 0u);
  EXPECT_EQ(bruteforce_pairs(a, &b, eps), expected);
}

INSTANTIATE_TEST_SUITE_P(Dims, OracleDims, ::testing::Values(1, 2, 3, 8, 17, 64));

TEST(Oracle, InclusiveAtExactlyEps) {
  const PointSet lattice = lattice_points(5, 2, 0.5);  // neighbours exactly 0.5 apart
  const auto pairs = bruteforce_pairs(lattice, nullptr, 0.5);
  // 5x5 lattice: 2 * 5 * 4 axis-aligned neighbour pairs; diagonals are 0.707 apart.
  EXPECT_EQ(pairs.size(), 40u);
}

TEST(Oracle, DuplicatePointsAreDistinctAndEpsZeroFindsThem) {
  PointSet points(4, 3, Coordinates<double>(12, 2.5));
  EXPECT_EQ(bruteforce_pairs(points, nullptr, 0.0).size(), 6u);
}

TEST(Oracle, TinyInputs) {
  EXPECT_TRUE(bruteforce_pairs(PointSet(0, 2), nullptr, 1.0).empty());
  EXPECT_TRUE(bruteforce_pairs(PointSet(1, 2), nullptr, 1.0).empty());
  PointSet two(2, 1, {0.f, 1.f});
  EXPECT_EQ(bruteforce_pairs(two, nullptr, 1.0), (std::vector<Pair>{{0, 1}}));
  EXPECT_TRUE(bruteforce_pairs(two, nullptr, 0.999).empty());
}

TEST(Oracle, CountOnlyEqualsPairCount) {
  const PointSet points = random_points(Distribution::Uniform, 1000, 3, test_seed());
  CpuBruteForceEngine oracle;
  JoinParams params;
  params.eps = 0.2;
  EXPECT_EQ(count_pairs(oracle, points, nullptr, params), oracle_pairs(points, nullptr, 0.2).size());
}

TEST(Oracle, RejectsNegativeEpsAndDimensionMismatch) {
  CpuBruteForceEngine oracle;
  const PointSet a(3, 2), b(3, 3);
  JoinParams params;
  params.eps = -1;
  EXPECT_THROW(count_pairs(oracle, a, nullptr, params), Error);
  params.eps = 1;
  EXPECT_THROW(count_pairs(oracle, a, &b, params), Error);
}

TEST(Oracle, CancelStopsTheRun) {
  const PointSet points = random_points(Distribution::Uniform, 20000, 8, 1);
  CpuBruteForceEngine oracle;
  CountSink sink;
  RunControl control;
  control.request_cancel();
  JoinParams params;
  params.eps = 0.1;
  try {
    run_engine(oracle, {&points, nullptr}, params, sink, control);
    FAIL() << "expected cancellation";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled);
  }
}

TEST(Verify, ReportsMissingExtraAndDuplicates) {
  const std::vector<Pair> expected{{0, 1}, {1, 2}};
  auto report = compare_pairs({{0, 2}, {0, 2}, {1, 2}}, expected);
  EXPECT_EQ(report.missing, (std::vector<Pair>{{0, 1}}));
  EXPECT_EQ(report.extra, (std::vector<Pair>{{0, 2}}));
  EXPECT_EQ(report.duplicates, 1u);
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(compare_pairs(expected, expected).ok());
}
