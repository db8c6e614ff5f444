#pragma once
// The points of legacy VTK files (.vtk), read by the project's own code rather than VTK's reader.
#include <string>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Reads the POINTS (n x 3) of a POLYDATA, UNSTRUCTURED_GRID or STRUCTURED_GRID data set, ASCII or
// BINARY (big endian); what follows the points (cells, point data) is ignored. Every count and value
// is checked against the file. Throws Error(BadInput) naming the file and the line.
PointSet read_legacy_vtk(const std::string& path, RunControl* control = nullptr);

}  // namespace simjoin
