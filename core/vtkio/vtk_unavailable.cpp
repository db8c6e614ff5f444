// Stand-ins for builds without VTK (SIMJOIN_VTK=OFF), e.g. the GPU build on a bare machine.
#include "core/base/error.hpp"
#include "core/vtkio/vtk_points.hpp"

namespace simjoin {

void write_labeled_vtp(const std::string& path, const PointSet&,
                       const std::vector<std::pair<std::string, std::vector<std::int32_t>>>&) {
  fail(ErrorKind::Unavailable,
       path + ": this build of Simjoin Studio is built without VTK, so it cannot write .vtp files");
}

}  // namespace simjoin
