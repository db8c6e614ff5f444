#pragma once
// LAS point clouds (ASPRS LAS 1.0 to 1.4, point data record formats 0 to 10), read by the project's own
// code: no LAS library is packaged for Debian 12.
#include <string>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Reads x, y, z of every point record: the stored int32 X, Y, Z times the header's scale plus its
// offset, computed in float64. Other fields, extra bytes and (extended) variable length records are
// ignored. Counts, offsets and record lengths are checked against the file's size; LAZ (compressed)
// files are refused with how to decompress them. Throws Error(BadInput) naming the file.
PointSet read_las(const std::string& path, RunControl* control = nullptr);

}  // namespace simjoin
