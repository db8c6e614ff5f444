#pragma once
// PLY point files (ASCII, binary little and big endian), read by the project's own code.
#include <string>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Reads the `vertex` element: x, y, z, then its other scalar properties in file order (normals,
// colours, ...), as columns named after the properties; list properties are skipped, and so are the
// other elements (faces, edges) wherever they come. Every count, line and value is checked against the
// header and the file's size. Throws Error(BadInput) naming the file and the line (ASCII) or element
// index (binary) and the property.
PointSet read_ply(const std::string& path, RunControl* control = nullptr);

}  // namespace simjoin
