#pragma once
// Point files written by `simjoin generate` and exports.
#include <string>

#include "core/points/point_set.hpp"

namespace simjoin {

// .npy (n x d, float32 or float64 as write_npy chooses) or .csv (header of column names, else x0,x1,...; shortest
// round-trip decimals) by extension; anything else throws Error(Usage).
void write_points(const std::string& path, const PointSet& points);

}  // namespace simjoin
