#include "core/io/load_points.hpp"

#include <algorithm>
#include <filesystem>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/las_reader.hpp"
#include "core/io/npy.hpp"
#include "core/io/ply_reader.hpp"
#include "core/io/vtk_legacy_reader.hpp"
#include "core/io/vtk_xml_reader.hpp"

namespace simjoin {

namespace {
const std::vector<std::string> kTextExtensions = {".csv", ".tsv", ".txt", ".dat", ".xyz"};
// Binary and mesh formats, each with a reader of its own.
const std::vector<std::string> kOtherExtensions = {".npy", ".ply", ".vtp", ".vtk", ".las", ".laz"};

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}
}  // namespace

const std::vector<std::string>& supported_point_extensions() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> list = kTextExtensions;
    list.insert(list.end(), kOtherExtensions.begin(), kOtherExtensions.end());
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
  } else if (ext == ".ply") {
    points = read_ply(path, control);
  } else if (ext == ".vtp") {
    points = read_vtp(path, control);
  } else if (ext == ".vtk") {
    points = read_legacy_vtk(path, control);
  } else if (ext == ".las" || ext == ".laz") {
    points = read_las(path, control);
  } else {
    std::string known;
    for (const std::string& e : supported_point_extensions()) known += (known.empty() ? "" : " ") + e;
    fail(ErrorKind::BadInput, path + ": unknown point file type '" + ext + "'; supported: " + known);
  }
  points.source = path;
  return points;
}

}  // namespace simjoin
