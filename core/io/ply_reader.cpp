#include "core/io/ply_reader.hpp"

#include <algorithm>
#include <string_view>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/line_reader.hpp"
#include "core/io/number_text.hpp"
#include "core/io/ply_header.hpp"

namespace simjoin {

namespace {

constexpr std::uint64_t kCancelEvery = 1 << 16;

// Where each property of the vertex element goes: a column, or nowhere (lists).
struct VertexColumns {
  std::vector<int> column_of;  // per property; -1 for a skipped one
  std::vector<std::string> names;
  std::string source_type;
};

VertexColumns vertex_columns(const std::string& path, const PlyElement& vertex) {
  VertexColumns columns;
  columns.column_of.assign(vertex.properties.size(), -1);
  for (const char* axis : {"x", "y", "z"}) {
    const auto it = std::find_if(vertex.properties.begin(), vertex.properties.end(),
                                 [&](const PlyProperty& p) { return p.name == axis && !p.list_count; });
    if (it == vertex.properties.end())
      fail(ErrorKind::BadInput, path + ": the PLY vertex element has no scalar property '" + axis + "'");
    columns.column_of[std::size_t(it - vertex.properties.begin())] = int(columns.names.size());
    columns.names.push_back(axis);
  }
  for (std::size_t k = 0; k < vertex.properties.size(); ++k) {
    if (columns.column_of[k] >= 0 || vertex.properties[k].list_count) continue;
    columns.column_of[k] = int(columns.names.size());
    columns.names.push_back(vertex.properties[k].name);
  }
  for (std::size_t k = 0; k < vertex.properties.size(); ++k) {
    if (columns.column_of[k] < 0) continue;
    const std::string_view type = name_of(vertex.properties[k].type);
    if (columns.source_type.find(type) == std::string::npos)
      columns.source_type += (columns.source_type.empty() ? "" : "/") + std::string(type);
  }
  if (columns.names.size() > kMaxDims)
    fail(ErrorKind::BadInput, path + ": the PLY vertex element has " + std::to_string(columns.names.size()) +
                                  " scalar properties, more than the supported " + std::to_string(kMaxDims) +
                                  " dimensions");
  return columns;
}

std::string element_place(const PlyElement& element, std::uint64_t index, const PlyProperty& property) {
  return "element '" + element.name + "' " + std::to_string(index) + ", property '" + property.name + "'";
}

// Reads the elements of a binary body in order, keeping the vertex element's columns.
class BinaryBody {
 public:
  BinaryBody(const std::string& path, std::string_view data, bool big_endian, RunControl* control)
      : path_(path), data_(data), big_endian_(big_endian), control_(control) {}

  void read(const PlyElement& element, const VertexColumns* columns, Coordinates<double>& out) {
    check_minimum_size(element);
    const bool fixed = std::none_of(element.properties.begin(), element.properties.end(),
                                    [](const PlyProperty& p) { return p.list_count.has_value(); });
    if (fixed && !columns) {
      pos_ += element.count * fixed_stride(element);  // checked against the file's size above
      return;
    }
    std::vector<double> row(columns ? columns->names.size() : 0);
    for (std::uint64_t i = 0; i < element.count; ++i) {
      if (control_ && i % kCancelEvery == 0) control_->throw_if_cancelled();
      for (std::size_t k = 0; k < element.properties.size(); ++k) {
        const int column = columns ? columns->column_of[k] : -1;
        const double value = read_property(element, i, element.properties[k]);
        if (column >= 0) row[std::size_t(column)] = value;
      }
      out.insert(out.end(), row.begin(), row.end());
    }
  }

  // After the last element: line ends at most, or the header's counts promised less than the file holds.
  void finish() const {
    const std::size_t end = data_.find_first_not_of(" \t\r\n", pos_);
    if (end != std::string_view::npos)
      fail(ErrorKind::BadInput, path_ + ": " + std::to_string(data_.size() - pos_) +
                                    " bytes follow the elements the header declares: the counts do not match the data");
  }

 private:
  std::uint64_t fixed_stride(const PlyElement& element) const {
    std::uint64_t stride = 0;
    for (const PlyProperty& p : element.properties) stride += size_of(p.list_count ? *p.list_count : p.type);
    return stride;
  }

  // Each instance needs at least its scalars and its lists' lengths.
  void check_minimum_size(const PlyElement& element) const {
    std::uint64_t bytes = 0;
    if (!checked_multiply(element.count, fixed_stride(element), bytes) || bytes > data_.size() - pos_)
      fail(ErrorKind::BadInput, path_ + ": truncated PLY file: element '" + element.name + "' declares " +
                                    std::to_string(element.count) + " instances of at least " +
                                    std::to_string(fixed_stride(element)) + " bytes, the file has " +
                                    std::to_string(data_.size() - pos_) + " bytes left");
  }

  // The property's value (a list's values are skipped; 0 is returned for a list).
  double read_property(const PlyElement& element, std::uint64_t index, const PlyProperty& property) {
    if (!property.list_count) return take(size_of(property.type), element, index, property, property.type);
    const double length = take(size_of(*property.list_count), element, index, property, *property.list_count);
    std::uint64_t bytes = 0;
    if (length < 0 || !checked_multiply(std::uint64_t(length), size_of(property.type), bytes) ||
        bytes > data_.size() - pos_)
      fail(ErrorKind::BadInput, path_ + ": " + element_place(element, index, property) + ": a list of " +
                                    std::to_string(std::int64_t(length)) + " items does not fit in the file");
    pos_ += bytes;
    return 0;
  }

  double take(std::size_t size, const PlyElement& element, std::uint64_t index, const PlyProperty& property,
              NumberType type) {
    if (size > data_.size() - pos_)
      fail(ErrorKind::BadInput, path_ + ": truncated PLY file at " + element_place(element, index, property));
    const double value = decode_number(data_.data() + pos_, type, big_endian_);
    pos_ += size;
    return value;
  }

  const std::string& path_;
  std::string_view data_;
  bool big_endian_;
  RunControl* control_;
  std::size_t pos_ = 0;
};

// Reads the elements of an ASCII body in order, one instance a line.
class AsciiBody {
 public:
  AsciiBody(const std::string& path, std::string_view data, std::size_t header_lines, RunControl* control)
      : path_(path), lines_(data, header_lines), control_(control) {}

  void read(const PlyElement& element, const VertexColumns* columns, Coordinates<double>& out) {
    std::vector<double> row(columns ? columns->names.size() : 0);
    for (std::uint64_t i = 0; i < element.count; ++i) {
      if (control_ && i % kCancelEvery == 0) control_->throw_if_cancelled();
      if (!next_line())
        fail(ErrorKind::BadInput, path_ + ": truncated PLY file: the file ends before element '" + element.name + "' " +
                                      std::to_string(i) + " of " + std::to_string(element.count));
      std::size_t next = 0;
      for (std::size_t k = 0; k < element.properties.size(); ++k)
        read_property(element, i, element.properties[k], next, columns ? columns->column_of[k] : -1, row);
      if (next != words_.size())
        error(element, i, " has " + std::to_string(words_.size()) + " values, more than its properties take");
      out.insert(out.end(), row.begin(), row.end());
    }
  }

  // After the last element: blank lines at most, or the header's counts promised fewer than the file holds.
  void finish() {
    if (next_line())
      fail(ErrorKind::BadInput,
           path_ + ": line " + std::to_string(lines_.number()) +
               ": values follow the elements the header declares: the counts do not match the data");
  }

 private:
  // The next line holding values, split into words_.
  bool next_line() {
    std::string_view line;
    while (lines_.next(line)) {
      split_ply_words(line, words_);
      if (!words_.empty()) return true;
    }
    return false;
  }

  void read_property(const PlyElement& element, std::uint64_t index, const PlyProperty& property, std::size_t& next,
                     int column, std::vector<double>& row) {
    const std::string_view word = take(element, index, property, next);
    if (property.list_count) {
      std::uint64_t length = 0;
      if (!parse_count(word, length))
        error(element, index,
              ", property '" + property.name + "': list length '" + std::string(word) +
                  "' is not a non-negative integer");
      if (length > words_.size() - next)
        error(element, index,
              ", property '" + property.name + "': a list of " + std::to_string(length) + " items, the line has " +
                  std::to_string(words_.size() - next) + " values left");
      next += std::size_t(length);
      return;
    }
    if (column < 0) return;
    double value = 0;
    std::string problem;
    if (!parse_typed_number(word, property.type, value, problem))
      error(element, index, ", property '" + property.name + "': " + problem);
    row[std::size_t(column)] = value;
  }

  std::string_view take(const PlyElement& element, std::uint64_t index, const PlyProperty& property,
                        std::size_t& next) {
    if (next >= words_.size())
      error(element, index,
            " has " + std::to_string(words_.size()) + " values; property '" + property.name + "' is missing");
    return words_[next++];
  }

  [[noreturn]] void error(const PlyElement& element, std::uint64_t index, const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(lines_.number()) + ": element '" + element.name +
                                  "' " + std::to_string(index) + why);
  }

  const std::string& path_;
  LineReader lines_;
  RunControl* control_;
  std::vector<std::string_view> words_;
};

const PlyElement& vertex_element(const std::string& path, const PlyHeader& header) {
  const auto is_vertex = [](const PlyElement& e) { return e.name == "vertex"; };
  const auto it = std::find_if(header.elements.begin(), header.elements.end(), is_vertex);
  if (it == header.elements.end()) fail(ErrorKind::BadInput, path + ": the PLY file has no vertex element");
  if (std::count_if(header.elements.begin(), header.elements.end(), is_vertex) > 1)
    fail(ErrorKind::BadInput, path + ": the PLY file has more than one vertex element");
  if (it->count == 0) fail(ErrorKind::BadInput, path + ": contains no points");
  return *it;
}

template <typename Body>
Coordinates<double> read_body(Body& body, const PlyHeader& header, const PlyElement& vertex,
                              const VertexColumns& columns, std::size_t data_bytes, RunControl* control) {
  Coordinates<double> coords;
  // Each value takes at least one byte (binary) or two characters (ASCII, `data_bytes` is halved):
  // never reserve more values than the file can hold.
  const std::size_t dims = columns.names.size();
  coords.reserve(std::size_t(std::min<std::uint64_t>(vertex.count, data_bytes / dims) * dims));
  for (std::size_t k = 0; k < header.elements.size(); ++k) {
    const PlyElement& element = header.elements[k];
    body.read(element, &element == &vertex ? &columns : nullptr, coords);
    if (control) control->report(double(k + 1) / double(header.elements.size()));
  }
  body.finish();
  return coords;
}

}  // namespace

PointSet read_ply(const std::string& path, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  const PlyHeader header = parse_ply_header(path, bytes);
  const PlyElement& vertex = vertex_element(path, header);
  const VertexColumns columns = vertex_columns(path, vertex);
  const std::string_view data = std::string_view(bytes).substr(header.data_offset);
  Coordinates<double> coords;
  if (header.format == PlyFormat::Ascii) {
    AsciiBody body(path, data, header.lines, control);
    coords = read_body(body, header, vertex, columns, data.size() / 2, control);
  } else {
    BinaryBody body(path, data, header.format == PlyFormat::BinaryBigEndian, control);
    coords = read_body(body, header, vertex, columns, data.size(), control);
  }
  PointSet points(std::size_t(vertex.count), columns.names.size(), std::move(coords));
  require_finite(points, path);
  points.column_names = columns.names;
  points.source_type = columns.source_type;
  if (control) control->report(1.0);
  return points;
}

}  // namespace simjoin
