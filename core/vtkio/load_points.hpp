#pragma once
#include <string>

#include "core/point_set.hpp"
#include "core/run_control.hpp"

namespace simjoin {

// Reads a point file, choosing the reader by extension. Throws Error(BadInput) naming the file.
PointSet load_points(const std::string& path, RunControl* control = nullptr);

}  // namespace simjoin
