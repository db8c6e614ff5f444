#include "ui/views/pick_neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/points/pca_axes.hpp"
#include "ui/export/csv_format.hpp"
#include "ui/views/picking.hpp"

namespace simjoin::ui {

namespace {
std::string header(const PointSet& points) {
  std::string line = "id,distance";
  for (std::size_t k = 0; k < points.dims(); ++k) line += "," + csv_field(column_name(points, k));
  return line + "\n";
}
}  // namespace

std::size_t write_pick_neighbours(const PointSet& points, std::uint32_t id, double eps, const std::string& path) {
  if (id >= points.size())
    fail(ErrorKind::BadInput, path + ": point " + std::to_string(id) + " is not a row of the file (" +
                                  std::to_string(points.size()) + " points)");
  std::vector<std::pair<double, std::uint32_t>> found;
  for (const std::uint32_t q : neighbours_within(points, id, eps))
    found.emplace_back(std::sqrt(squared_distance(points.point(id), points.point(q), points.dims())), q);
  std::sort(found.begin(), found.end());
  OutputFile file(path);
  file.write(header(points));
  std::string row;
  for (const auto& [d, q] : found) {
    row = std::to_string(q) + "," + format_number(d);
    for (std::size_t k = 0; k < points.dims(); ++k) row += "," + format_number(points.point(q)[k]);
    file.write(row + "\n");
  }
  file.close();
  return found.size();
}

}  // namespace simjoin::ui
