#include <cmath>

#include "core/base/error.hpp"
#include "core/points/generators.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;

TEST(Generators, SameSeedSamePointsOtherSeedOtherPoints) {
  GeneratorSpec spec{Distribution::Clusters, 1000, 4, 5, 0.1, 0, 10, 42};
  EXPECT_EQ(generate(spec).values(), generate(spec).values());
  spec.seed = 43;
  GeneratorSpec first = spec;
  first.seed = 42;
  EXPECT_NE(generate(spec).values(), generate(first).values());
}

TEST(Generators, UniformStaysInRangeWithTheRightMean) {
  const PointSet points = generate({Distribution::Uniform, 20000, 3, 0, 0, -2, 6, simjoin::testing::test_seed()});
  double sum = 0;
  for (double x : points.coords()) {
    ASSERT_GE(x, -2.f);
    ASSERT_LE(x, 6.f);
    sum += x;
  }
  EXPECT_NEAR(sum / double(points.coords().size()), 2.0, 0.1);
}

TEST(Generators, ClustersHaveTheRequestedSpread) {
  const double sigma = 0.25;
  const PointSet points = generate({Distribution::Clusters, 20000, 2, 3, sigma, 0, 100, simjoin::testing::test_seed()});
  ASSERT_EQ(points.labels.size(), points.size());
  // Per-cluster standard deviation of x must be sigma.
  double sum[3] = {}, sum2[3] = {};
  std::size_t count[3] = {};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const int c = std::stoi(points.labels[i]);
    sum[c] += points.point(i)[0];
    sum2[c] += double(points.point(i)[0]) * points.point(i)[0];
    ++count[c];
  }
  for (int c = 0; c < 3; ++c) {
    ASSERT_GT(count[c], 5000u);
    const double mean = sum[c] / count[c];
    EXPECT_NEAR(std::sqrt(sum2[c] / count[c] - mean * mean), sigma, 0.02);
  }
}

TEST(Generators, CorrelatedClustersAreElongated) {
  const PointSet points = generate({Distribution::Correlated, 5000, 3, 1, 0.1, 0, 1, 7});
  // One cluster: total variance is about sigma^2 (25 + 3), far above the isotropic 3 sigma^2.
  double mean[3] = {}, var = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) mean[k] += points.point(i)[k] / double(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) var += std::pow(points.point(i)[k] - mean[k], 2) / double(points.size());
  EXPECT_NEAR(var, 0.01 * 28, 0.03);
}

TEST(Generators, NamedWorkloadsMatchTheDesignTable) {
  const Workload& w1 = find_workload("W1-clustered8d-500k");
  EXPECT_EQ(w1.spec.n, 500000u);
  EXPECT_EQ(w1.spec.dims, 8u);
  EXPECT_EQ(w1.spec.clusters, 10u);
  EXPECT_DOUBLE_EQ(w1.eps, 0.5);
  EXPECT_EQ(find_workload("W5-clustered32d-1m").spec.dims, 32u);
  EXPECT_EQ(standard_workloads().size(), 5u);
  try {
    find_workload("W9");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("W1-clustered8d-500k"), std::string::npos);
  }
}

TEST(Generators, RejectsBadSpecs) {
  EXPECT_THROW(generate({Distribution::Uniform, 10, 0, 0, 0, 0, 1, 1}), Error);
  EXPECT_THROW(generate({Distribution::Uniform, 10, 2, 0, 0, 5, 1, 1}), Error);
  EXPECT_THROW(generate({Distribution::Clusters, 10, 2, 0, 0.1, 0, 1, 1}), Error);
  EXPECT_THROW(parse_distribution("gaussian-ish"), Error);
}
