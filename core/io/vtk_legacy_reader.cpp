#include "core/io/vtk_legacy_reader.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/line_reader.hpp"
#include "core/io/number_text.hpp"
#include "core/io/ply_header.hpp"
#include "core/io/vtk_number_types.hpp"

namespace simjoin {

namespace {

struct PointsSection {
  bool binary = false;
  std::uint64_t count = 0;
  NumberType type = NumberType::Float32;
  std::size_t data_offset = 0;  // just past the POINTS line
  std::size_t line = 0;         // of the POINTS line
};

class HeaderReader {
 public:
  HeaderReader(const std::string& path, std::string_view bytes) : path_(path), lines_(bytes) {}

  PointsSection read() {
    PointsSection section;
    if (!next_line() || !line_.starts_with("# vtk DataFile Version"))
      fail(ErrorKind::BadInput, path_ + ": not a legacy VTK file (line 1 is not '# vtk DataFile Version ...')");
    if (!next_line()) error("the file ends after its first line");  // the title
    if (!next_line() || (line_ != "ASCII" && line_ != "BINARY")) error("expected ASCII or BINARY");
    section.binary = line_ == "BINARY";
    std::uint64_t grid_points = 0;
    std::vector<std::string_view> words;
    for (;;) {
      if (!next_line()) error("the file ends before POINTS");
      split_ply_words(line_, words);
      if (words.empty()) continue;
      if (words[0] == "DATASET")
        dataset(words);
      else if (words[0] == "DIMENSIONS")
        grid_points = dimensions(words);
      else if (words[0] == "POINTS")
        break;
      else
        error("'" + std::string(words[0].substr(0, 40)) + "' before POINTS cannot be read");
    }
    if (!dataset_seen_) error("POINTS before DATASET");
    points(words, section);
    if (grid_points != 0 && grid_points != section.count)
      error("DIMENSIONS give " + std::to_string(grid_points) + " points, POINTS " + std::to_string(section.count));
    return section;
  }

 private:
  bool next_line() { return lines_.next(line_); }

  void dataset(const std::vector<std::string_view>& words) {
    if (words.size() != 2 ||
        (words[1] != "POLYDATA" && words[1] != "UNSTRUCTURED_GRID" && words[1] != "STRUCTURED_GRID"))
      error("the data set is '" + std::string(line_.substr(0, 60)) +
            "'; need DATASET POLYDATA, UNSTRUCTURED_GRID or STRUCTURED_GRID");
    dataset_seen_ = true;
  }

  std::uint64_t dimensions(const std::vector<std::string_view>& words) const {
    std::uint64_t product = 1;
    for (std::size_t k = 1; k < 4; ++k) {
      std::uint64_t value = 0;
      if (words.size() != 4 || !parse_count(words[k], value) || !checked_multiply(product, value, product))
        error("expected DIMENSIONS NX NY NZ with non-negative integers");
    }
    return product;
  }

  void points(const std::vector<std::string_view>& words, PointsSection& section) const {
    if (words.size() != 3 || !parse_count(words[1], section.count))
      error("expected 'POINTS COUNT TYPE' with a non-negative integer count");
    const auto type = vtk_legacy_number_type(words[2]);
    if (!type) error("unknown POINTS type '" + std::string(words[2].substr(0, 40)) + "'");
    section.type = *type;
    section.data_offset = lines_.offset();
    section.line = lines_.number();
  }

  [[noreturn]] void error(const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(lines_.number()) + ": " + why);
  }

  const std::string& path_;
  LineReader lines_;
  std::string_view line_;
  bool dataset_seen_ = false;
};

// What follows the points must be the end of the file or the next section's keyword (VERTICES,
// POINT_DATA, ...): anything else means POINTS promised fewer points than the file holds, or more
// (the next section's bytes read as coordinates).
void check_points_end(const std::string& where, std::string_view data, std::size_t end) {
  const auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (end < data.size() && is_space(data[end])) ++end;
  std::size_t word = end;
  while (word < data.size() && ((data[word] >= 'A' && data[word] <= 'Z') || data[word] == '_')) ++word;
  if (end == data.size() || (word > end && (word == data.size() || is_space(data[word])))) return;
  std::string shown(data.substr(end, std::min<std::size_t>(20, data.size() - end)));
  for (char& c : shown)
    if (c < ' ' || c > '~') c = '.';  // binary bytes, shown but not printed raw
  fail(ErrorKind::BadInput, where + ": the points are followed by '" + shown + "' (byte " + std::to_string(end) +
                                " after POINTS), not by a section keyword: the count does not match the points");
}

Coordinates<double> read_values(const std::string& path, std::string_view bytes, const PointsSection& section,
                                RunControl* control) {
  const std::string_view data = bytes.substr(section.data_offset);
  const std::string where =
      path + ": line " + std::to_string(section.line) + ": POINTS " + std::to_string(section.count);
  std::uint64_t values = 0, needed = 0;
  const bool sized =
      checked_multiply(section.count, 3, values) && checked_multiply(values, size_of(section.type), needed);
  // Binary values take their size; ASCII values at least a character and a separator.
  if (!sized || (section.binary ? needed > data.size() : values > data.size() / 2 + 1))
    fail(ErrorKind::BadInput, where + ": the file is too short for that many points");
  Coordinates<double> coords(static_cast<std::size_t>(values));
  if (section.binary) {
    for (std::size_t i = 0; i < values; ++i) {
      if (control && i % (1 << 20) == 0) control->throw_if_cancelled();
      coords[i] = decode_number(data.data() + i * size_of(section.type), section.type, true);
    }
    check_points_end(where, data, std::size_t(needed));
    return coords;
  }
  const std::size_t end = parse_number_list(
      data, std::size_t(values), section.type, coords.data(),
      [&](std::size_t i, std::size_t offset) {
        std::size_t line = section.line + 1;
        for (std::size_t k = 0; k < offset; ++k) line += data[k] == '\n';
        return path + ": line " + std::to_string(line) + ": point " + std::to_string(i / 3) + ", component " +
               std::to_string(i % 3);
      },
      control);
  check_points_end(where, data, end);
  return coords;
}

}  // namespace

PointSet read_legacy_vtk(const std::string& path, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  const PointsSection section = HeaderReader(path, bytes).read();
  if (section.count == 0) fail(ErrorKind::BadInput, path + ": contains no points");
  PointSet points(std::size_t(section.count), 3, read_values(path, bytes, section, control));
  require_finite(points, path);
  points.column_names = {"x", "y", "z"};
  points.source_type = std::string(name_of(section.type));
  if (control) control->report(1.0);
  return points;
}

}  // namespace simjoin
