#pragma once
#include <string>

namespace simjoin {

// vtkPLYReader reads a truncated PLY file without an error (it repeats earlier values), so the data
// is first checked against the element counts of the header. Throws Error(BadInput) naming the file
// when the data is shorter than the header declares; leaves any other problem to the PLY reader.
void check_ply_length(const std::string& path, const std::string& bytes);

}  // namespace simjoin
