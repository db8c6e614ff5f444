#pragma once
// Labelled point exports through VTK's XML writer. (Point files are read by core/io's own readers.)
// In a build without VTK, writing throws Error(Unavailable) saying why.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin {

// Writes the points as VTK XML polydata with one vertex cell per point, for display: the first three
// dimensions are kept and missing ones are 0. Each (name, values) becomes an int32 point-data array
// and must have one value per point.
void write_labeled_vtp(const std::string& path, const PointSet& points,
                       const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& int_arrays);

}  // namespace simjoin
