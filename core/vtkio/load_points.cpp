#include "core/vtkio/load_points.hpp"

#include "core/error.hpp"

namespace simjoin {

PointSet load_points(const std::string& path, RunControl*) {
  fail(ErrorKind::BadInput, path + ": no reader for this file");
}

}  // namespace simjoin
