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

}  // namespace simjoin::ui
