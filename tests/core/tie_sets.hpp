#pragma once
// Tie-heavy and extreme-scale point sets, each with the eps values it is joined at: lattices exactly
// eps apart (at the origin, at UTM offsets, at spacings of 1e-30, 1e20 and subnormal ones), pairs
// within 1e-7 of eps at several powers of two, and random points at eps from 5e-324 to 1e308.
#include <cstdint>
#include <string>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin::testing {

struct TieSet {
  std::string name;
  PointSet points;
  std::vector<double> eps;
};

std::vector<TieSet> tie_heavy_sets(std::uint64_t seed);

// The points moved by `offset` (its values repeated over the dimensions).
PointSet shifted(PointSet points, const std::vector<double>& offset);

// eps across the double range: 5e-324, 1e-310, DBL_MIN, 1e-300, 1e300, 1e308.
std::vector<double> extreme_eps();

}  // namespace simjoin::testing
