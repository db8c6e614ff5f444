// The independent reference (tests/reference) on hand-counted cases, the real-number predicate beside
// it, and the engines' shared exact test (core/numeric/exact_test.hpp, core/frame/join_frame.cpp) against it.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <iostream>

#include "core/frame/join_frame.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/core/tie_sets.hpp"
#include "tests/reference/real_predicate.hpp"
#include "tests/reference/reference_join.hpp"

using namespace simjoin;
using namespace simjoin::testing;
using RefPair = reference::Pair;

namespace {
std::vector<RefPair> self_join(const PointSet& points, double eps) {
  return reference::self_join(points.data(), points.size(), points.dims(), eps);
}

// Subnormal multiples of 2^-1074.
double tiny(double units) { return std::ldexp(units, -1074); }
}  // namespace

TEST(Reference, HandCountedCases) {
  // 5 x 5 lattice 0.5 apart: 2 * 5 * 4 neighbours exactly eps apart, diagonals 0.707 apart.
  EXPECT_EQ(self_join(lattice_points(5, 2, 0.5), 0.5).size(), 40u);
  EXPECT_EQ(self_join(lattice_points(5, 2, 0.5), 0.5 * std::sqrt(2.0)).size(), 40u + 32u);
  EXPECT_EQ(self_join(PointSet(4, 3, Coordinates<double>(12, 2.5)), 0.0).size(), 6u);
  const PointSet two(2, 1, {0.0, 1.0});
  EXPECT_EQ(self_join(two, 1.0), (std::vector<RefPair>{{0, 1}}));
  EXPECT_TRUE(self_join(two, 0.999).empty());
  const PointSet a(2, 2, {0.0, 0.0, 3.0, 4.0}), b(3, 2, {0.0, 5.0, 3.0, 0.0, 9.0, 9.0});
  EXPECT_EQ(reference::join(a.data(), 2, b.data(), 3, 2, 5.0), (std::vector<RefPair>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  // eps = 0: only identical points, however close the others (1e-200 squares to zero in float64).
  const PointSet close(3, 1, {1e-200, 0.0, 1e-200});
  EXPECT_EQ(self_join(close, 0.0), (std::vector<RefPair>{{0, 2}}));
}

TEST(Reference, SubnormalAndHugeEps) {
  const PointSet line(3, 1, {0.0, tiny(1000), tiny(3000)});
  EXPECT_EQ(self_join(line, tiny(1000)), (std::vector<RefPair>{{0, 1}}));
  EXPECT_EQ(self_join(line, tiny(2000)), (std::vector<RefPair>{{0, 1}, {1, 2}}));
  EXPECT_EQ(self_join(line, tiny(1999)), (std::vector<RefPair>{{0, 1}}));
  const PointSet smallest(3, 1, {0.0, 5e-324, 1e-323});
  EXPECT_EQ(self_join(smallest, 5e-324), (std::vector<RefPair>{{0, 1}, {1, 2}}));
  // The reproducer of a subnormal eps returning every pair: five points at least 0.2 apart.
  const PointSet five = random_points(Distribution::Uniform, 5, 2, 1);
  for (double eps : {5e-324, 1e-310, DBL_MIN, 1e-300}) EXPECT_TRUE(self_join(five, eps).empty()) << eps;
  for (double eps : {1e300, 1e308}) EXPECT_EQ(self_join(five, eps).size(), 10u) << eps;
  const PointSet far(2, 1, {-1e307, 1e307});
  EXPECT_EQ(self_join(far, 1e308).size(), 1u);
  EXPECT_TRUE(self_join(far, 1.9e307).empty());
}

TEST(RealPredicate, ExactOnDyadicsAndDisagreesWhereFloat64Rounds) {
  const double p[2] = {0.0, 0.0}, q[2] = {3.0, 4.0};
  EXPECT_TRUE(reference::within_real(p, q, 2, 5.0));
  EXPECT_FALSE(reference::within_real(p, q, 2, std::nextafter(5.0, 0.0)));
  const double s[1] = {tiny(1)}, t[1] = {tiny(3)};
  EXPECT_TRUE(reference::within_real(s, t, 1, tiny(2)));
  EXPECT_FALSE(reference::within_real(s, t, 1, tiny(1)));
  // 0.7000000000000001 - 0.2 is a little over 0.5 in the reals; float64's sum of squares rounds to 0.25.
  const double u[2] = {0.0, 0.2}, v[2] = {0.0, 7 * 0.1};
  EXPECT_FALSE(reference::within_real(u, v, 2, 0.5));
  EXPECT_TRUE(reference::within(u, v, 2, 0.5));
}

// How often float64 and the reals disagree on the tie-heavy sets (docs/testing.md quotes the counts):
// never where every value is a power of two times a small integer (lattices of 0.5, 2^-1070, 5e-324),
// often on decimal lattices, whose values are not what they print.
TEST(RealPredicate, DisagreementsOnTieHeavySets) {
  for (const TieSet& set : tie_heavy_sets(test_seed())) {
    for (double eps : set.eps) {
      const auto found = reference::count_disagreements(set.points.data(), set.points.size(), set.points.dims(), eps);
      std::cout << set.name << ", eps " << eps << ": " << found.pairs << " pairs, " << found.real_within
                << " within, float64 only " << found.float_only << ", reals only " << found.real_only << "\n";
      if (set.name == "lattice 0.5" || set.name.rfind("lattice 2^-1070", 0) == 0 || set.name == "lattice 5e-324")
        EXPECT_EQ(found.total(), 0u) << set.name;
    }
  }
  const PointSet decimal = lattice_points(20, 2, 0.1);
  EXPECT_GT(reference::count_disagreements(decimal.data(), decimal.size(), 2, 0.5).float_only, 0u);
}

TEST(ExactTest, OracleWithinIsTheReferencePredicate) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const TieSet& set : tie_heavy_sets(seed))
    for (double eps : set.eps) {
      SCOPED_TRACE(set.name + ", eps " + std::to_string(eps));
      const ExactBand oracle = oracle_band(eps);
      const std::size_t n = set.points.size(), d = set.points.dims();
      std::size_t disagreements = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          const double *p = set.points.point(i), *q = set.points.point(j);
          disagreements += oracle.oracle_within(p, q, d) != reference::within(p, q, d, eps);
        }
      EXPECT_EQ(disagreements, 0u);
    }
}

namespace {
// The float32 squared distance of two frame points, summed in dimension order.
float frame_distance2(const float* p, const float* q, std::size_t d) {
  float sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += (p[k] - q[k]) * (p[k] - q[k]);
  return sum;
}

// Their distance in double (exact differences of floats, rounding about 1e-16).
double frame_distance(const float* p, const float* q, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += (double(p[k]) - q[k]) * (double(p[k]) - q[k]);
  return std::sqrt(sum);
}
}  // namespace

// The frame's band and search radius against the reference: float32 below accept is a pair, above
// reject is none, and every pair lies within the search radius in frame coordinates.
TEST(ExactTest, FrameBandIsSoundForTheReference) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const TieSet& set : tie_heavy_sets(seed))
    for (double eps : set.eps) {
      SCOPED_TRACE(set.name + ", eps " + std::to_string(eps));
      const JoinFrame frame(set.points, nullptr, eps);
      const PointSet32 framed = frame.to_frame(set.points);
      const ExactBand& band = frame.band();
      const std::size_t n = set.points.size(), d = set.points.dims();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          const bool within = reference::within(set.points.point(i), set.points.point(j), d, eps);
          const float d2 = frame_distance2(framed.point(i), framed.point(j), d);
          const double reach = frame_distance(framed.point(i), framed.point(j), d);
          wrong += (d2 <= band.accept && !within) || (d2 > band.reject && within) ||
                   (within && reach > frame.search_radius() * (1 + 1e-12));
        }
      EXPECT_EQ(wrong, 0u);
    }
}
