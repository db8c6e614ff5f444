#pragma once
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/io/text_reader.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct LoadOptions {
  TextReadOptions text;  // for .csv .tsv .txt .dat .xyz
};

// Reads a point file, choosing the reader by extension: .csv .tsv .txt .dat .xyz (text), .npy, .ply,
// .vtp, .vtk (legacy VTK), .las (.laz is refused with how to decompress it); all are the project's
// own readers (core/io), none goes through VTK. Sets PointSet::source to the path. Throws
// Error(BadInput) naming the file.
PointSet load_points(const std::string& path, const LoadOptions& options = {}, RunControl* control = nullptr);

// The extensions load_points accepts, for file dialogs and messages.
const std::vector<std::string>& supported_point_extensions();

}  // namespace simjoin
