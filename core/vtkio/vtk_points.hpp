#pragma once
// Point files and exports through VTK: .ply (ASCII and binary), .vtp, legacy .vtk. In a build
// without VTK, reading throws Error(BadInput) and writing Error(Unavailable), both saying why.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/point_set.hpp"
#include "core/run_control.hpp"

namespace simjoin {

// Reads the points (n x 3) of a .ply, .vtp or legacy .vtk file holding polydata, an unstructured or
// a structured grid. VTK's own error messages become Error(BadInput) naming the file; so do a
// missing file and a file with no points.
PointSet read_vtk_points(const std::string& path, RunControl* control = nullptr);

// Writes the points as VTK XML polydata with one vertex cell per point, for display: the first three
// dimensions are kept and missing ones are 0. Each (name, values) becomes an int32 point-data array
// and must have one value per point.
void write_labeled_vtp(const std::string& path, const PointSet& points,
                       const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& int_arrays);

}  // namespace simjoin
