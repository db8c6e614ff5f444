#include "tests/core/tie_sets.hpp"

#include <cfloat>
#include <cmath>

#include "tests/core/oracle_check.hpp"

namespace simjoin::testing {

PointSet shifted(PointSet points, const std::vector<double>& offset) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < points.dims(); ++k) points.point(i)[k] += offset[k % offset.size()];
  return points;
}

namespace {
// Every coordinate times 2^exponent: exact while the values stay normal, so the ties stay ties.
PointSet scaled(PointSet points, int exponent) {
  for (std::size_t i = 0; i < points.size() * points.dims(); ++i)
    points.data()[i] = std::ldexp(points.data()[i], exponent);
  return points;
}

// Uniform points in [0, 1)^d, every fourth repeating an earlier one (pairs at any eps).
PointSet with_repeats(std::size_t n, std::size_t d, std::uint64_t seed) {
  PointSet points = random_points(Distribution::Uniform, n, d, seed);
  for (std::size_t i = 4; i < n; i += 4) std::copy_n(points.point(i / 4), d, points.point(i));
  return points;
}

void add_near_ties(std::vector<TieSet>& sets, std::uint64_t seed) {
  const double eps = 0.75;
  sets.push_back({"pairs within 1e-7 of eps, 3-D", pairs_near_eps(200, 3, eps, 1e-7, -3, seed), {eps}});
  sets.push_back({"pairs within 1e-7 of eps at UTM offsets", pairs_near_eps(200, 2, eps, 1e-7, 5e5, seed + 1), {eps}});
  for (int exponent : {-100, 66, -1000})
    sets.push_back({"pairs within 1e-7 of eps, scaled by 2^" + std::to_string(exponent),
                    scaled(pairs_near_eps(200, 2, eps, 1e-7, -3, seed + 2), exponent),
                    {std::ldexp(eps, exponent)}});
  // Subnormal coordinates: the values round to multiples of 2^-1074, ties of their own.
  sets.push_back({"pairs near eps in subnormal coordinates",
                  scaled(pairs_near_eps(200, 2, eps, 1e-3, -3, seed + 3), -1062),
                  {std::ldexp(eps, -1062)}});
}
}  // namespace

std::vector<double> extreme_eps() { return {5e-324, 1e-310, DBL_MIN, 1e-300, 1e300, 1e308}; }

std::vector<TieSet> tie_heavy_sets(std::uint64_t seed) {
  std::vector<TieSet> sets;
  sets.push_back({"lattice 0.5", lattice_points(20, 2, 0.5), {0.5, 0.5 * std::sqrt(2.0)}});
  sets.push_back({"lattice 0.1 at UTM offsets", shifted(lattice_points(20, 2, 0.1), {5e5, 4.5e6}), {0.5, 0.3}});
  sets.push_back({"lattice 0.1, 3-D", lattice_points(8, 3, 0.1), {0.3, 0.1 * std::sqrt(3.0)}});
  sets.push_back({"lattice 1e-30", lattice_points(20, 2, 1e-30), {1e-30, 2e-30, 5e-30}});
  sets.push_back({"lattice 1e20 at 1e30", shifted(lattice_points(20, 2, 1e20), {1e30}), {1e20, 3e20}});
  sets.push_back({"lattice 2^-1070 (subnormal)",
                  lattice_points(20, 2, std::ldexp(1.0, -1070)),
                  {std::ldexp(1.0, -1070), std::ldexp(3.0, -1070), 1e-310}});
  sets.push_back({"lattice 5e-324", lattice_points(20, 2, 5e-324), {5e-324, 1e-323, 1e-310}});
  add_near_ties(sets, seed);
  sets.push_back({"random points with repeats at extreme eps", with_repeats(200, 2, seed + 4), extreme_eps()});
  sets.push_back(
      {"coordinates near 1e307 at extreme eps", scaled(with_repeats(100, 3, seed + 5), 1020), extreme_eps()});
  return sets;
}

}  // namespace simjoin::testing
