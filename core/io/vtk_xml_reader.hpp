#pragma once
// The points of VTK XML polydata (.vtp), read by the project's own code rather than VTK's reader,
// which crashes or hangs on corrupt files.
#include <string>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Reads the Points of every Piece (n x 3): ascii, inline binary (base64) or appended (raw or
// base64) data, with UInt32 or UInt64 size headers, little or big endian, uncompressed or compressed
// by zlib. Every count, component number, size and value is checked against the file. Throws
// Error(BadInput) naming the file and what is wrong.
PointSet read_vtp(const std::string& path, RunControl* control = nullptr);

}  // namespace simjoin
