#pragma once
// Finding the point under the cursor and the facts its tooltip shows.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin::ui {

// The displayed point nearest to (x, y) within `radius` (view coordinates). `xy` holds the
// displayed points' coordinates, `ids` their point ids. Ties go to the lower id.
std::optional<std::uint32_t> pick_nearest(const std::vector<float>& xy, const std::vector<std::uint32_t>& ids, double x,
                                          double y, double radius);

// Ids of the points within eps of point i (inclusive, float64 distances), i itself excluded.
std::vector<std::uint32_t> neighbours_within(const PointSet& points, std::uint32_t i, double eps);

// The squared Euclidean distance of two points of `dims` coordinates, in float64.
double squared_distance(const double* a, const double* b, std::size_t dims);

// Where the points are dense at `eps`, measured on up to 256 evenly spaced candidates against an
// evenly spaced subset of at most 20,000 points (a few hundred milliseconds at 64-D and millions of
// points): the candidate with the most neighbours, and the mean neighbour count of a point, scaled to
// the whole file.
struct DensityProbe {
  std::uint32_t densest = 0;
  double mean_neighbours = 0;
};
DensityProbe probe_density(const PointSet& points, double eps);

}  // namespace simjoin::ui
