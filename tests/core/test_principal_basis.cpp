// The top directions of a sample (core/points/principal_basis.hpp): orthonormal rows, largest variance
// first, and the known axes of an anisotropic Gaussian found.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/numeric/lifted_bound.hpp"
#include "core/points/principal_basis.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using simjoin::testing::test_seed;

namespace {

// n x dims centred values whose coordinate t has standard deviation 1 / (t + 1).
std::vector<float> decaying_axes(std::size_t n, std::size_t dims, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<float> values(n * dims);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < dims; ++t) values[i * dims + t] = float(normal(random) / double(t + 1));
  std::vector<double> mean(dims, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < dims; ++t) mean[t] += values[i * dims + t] / double(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < dims; ++t) values[i * dims + t] = float(values[i * dims + t] - mean[t]);
  return values;
}

}  // namespace

TEST(PrincipalBasis, FindsTheLargestAxesInOrder) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::size_t n = 6000, dims = 64, count = 8;
  const PrincipalBasis basis = top_directions(decaying_axes(n, dims, seed), n, dims, count, seed + 1);
  ASSERT_EQ(basis.rows.size(), count * dims);
  EXPECT_LT(lifted::orthonormality_bound(basis.rows.data(), count, dims), 1e-12);
  for (std::size_t c = 0; c < count; ++c) {
    SCOPED_TRACE("direction " + std::to_string(c));
    EXPECT_GT(std::abs(basis.rows[c * dims + c]), 0.98);  // axis c, up to sign
    EXPECT_NEAR(basis.variance[c], 1.0 / double((c + 1) * (c + 1)), 0.1 / double((c + 1) * (c + 1)));
    if (c > 0) EXPECT_LE(basis.variance[c], basis.variance[c - 1]);
  }
}

TEST(PrincipalBasis, OrthonormalityBoundSeesAPerturbedBasis) {
  const std::size_t n = 2000, dims = 48, count = 15;
  PrincipalBasis basis = top_directions(decaying_axes(n, dims, test_seed()), n, dims, count, 7);
  const double exact = lifted::orthonormality_bound(basis.rows.data(), count, dims);
  basis.rows[3 * dims + 5] += 1e-6;  // row 3's norm and its products with the others move by about 1e-6
  const double perturbed = lifted::orthonormality_bound(basis.rows.data(), count, dims);
  EXPECT_LT(exact, 1e-13);
  EXPECT_GT(perturbed, 1e-7);
  EXPECT_LT(perturbed, 1e-5);
}
