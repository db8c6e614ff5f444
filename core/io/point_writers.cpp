#include "core/io/point_writers.hpp"

#include <charconv>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"

namespace simjoin {

namespace {
void write_csv_points(const std::string& path, const PointSet& points) {
  const std::size_t d = points.dims();
  const bool named = points.column_names.size() == d;
  std::string text;
  for (std::size_t k = 0; k < d; ++k)
    text += (k ? "," : "") + (named ? points.column_names[k] : "x" + std::to_string(k));
  text += '\n';
  OutputFile file(path);
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t k = 0; k < d; ++k) {
      char number[32];
      const char* end = std::to_chars(number, number + sizeof number, points.point(i)[k]).ptr;
      if (k) text += ',';
      text.append(number, std::size_t(end - number));
    }
    text += '\n';
    if (text.size() >= (std::size_t(1) << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
  file.close();
}
}  // namespace

void write_points(const std::string& path, const PointSet& points) {
  const std::string ext = lower_extension(path);
  if (ext == ".npy") return write_npy(path, points);
  if (ext == ".csv") return write_csv_points(path, points);
  fail(ErrorKind::Usage, path + ": unknown point file type '" + ext + "'; use .npy or .csv");
}

}  // namespace simjoin
