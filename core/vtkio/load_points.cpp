#include "core/vtkio/load_points.hpp"

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"
#include "core/vtkio/vtk_points.hpp"

namespace simjoin {

namespace {
const std::vector<std::string> kTextExtensions = {".csv", ".tsv", ".txt", ".dat", ".xyz"};
const std::vector<std::string> kVtkExtensions = {".ply", ".vtp", ".vtk"};

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}
}  // namespace

const std::vector<std::string>& supported_point_extensions() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> list = kTextExtensions;
    list.push_back(".npy");
    list.insert(list.end(), kVtkExtensions.begin(), kVtkExtensions.end());
    return list;
  }();
  return all;
}

PointSet load_points(const std::string& path, const LoadOptions& options, RunControl* control) {
  const std::string ext = lower_extension(path);
  if (control) control->set_phase("loading " + std::filesystem::path(path).filename().string());
  PointSet points;
  if (contains(kTextExtensions, ext)) {
    points = read_text(path, options.text, control);
  } else if (ext == ".npy") {
    points = read_npy(path, control);
  } else if (contains(kVtkExtensions, ext)) {
    points = read_vtk_points(path, control);
  } else {
    std::string known;
    for (const std::string& e : supported_point_extensions()) known += (known.empty() ? "" : " ") + e;
    fail(ErrorKind::BadInput, path + ": unknown point file type '" + ext + "'; supported: " + known);
  }
  points.source = path;
  return points;
}

}  // namespace simjoin
