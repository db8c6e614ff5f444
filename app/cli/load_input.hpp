#pragma once
#include <string>

#include "core/points/point_set.hpp"

namespace simjoin::cli {

// Loads a point file with its own progress bar and Ctrl-C handling, printing load warnings to stderr.
PointSet load_input(const std::string& path);

}  // namespace simjoin::cli
