#include "core/io/vtk_xml_reader.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/number_text.hpp"
#include "core/io/vtk_number_types.hpp"
#include "core/io/vtk_xml_data.hpp"
#include "core/io/xml_tags.hpp"

namespace simjoin {

namespace {

struct PointsArray {
  NumberType type = NumberType::Float32;
  std::string format;        // ascii, binary or appended
  std::uint64_t offset = 0;  // appended: from the byte after AppendedData's '_'
  std::size_t content = 0;   // ascii and binary: where the text inside the DataArray starts
};

struct Piece {
  std::uint64_t points = 0;
  std::size_t offset = 0;  // of the Piece tag, for messages
  std::optional<PointsArray> array;
};

struct VtpLayout {
  VtkBinaryLayout binary;
  std::vector<Piece> pieces;
  std::optional<std::size_t> appended_start;
  bool appended_base64 = false;
};

class VtpScanner {
 public:
  VtpScanner(const std::string& path, std::string_view bytes) : path_(path), bytes_(bytes) {}

  VtpLayout scan() {
    bool seen_root = false, in_points = false;
    for (std::size_t pos = 0;;) {
      const std::optional<XmlTag> tag = next_xml_tag(bytes_, pos, path_);
      if (!tag) break;
      tag_pos_ = tag->start;
      pos = tag->end;
      if (tag->name == "VTKFile")
        root(*tag), seen_root = true;
      else if (tag->name == "Piece")
        piece(*tag);
      else if (tag->name == "Points")
        in_points = !layout_.pieces.empty();
      else if (tag->name == "/Points")
        in_points = false;
      else if (tag->name == "DataArray" && in_points && !layout_.pieces.back().array)
        points_array(*tag);
      else if (tag->name == "AppendedData") {
        appended(*tag);
        break;
      }
    }
    if (!seen_root) fail(ErrorKind::BadInput, path_ + ": not a VTK XML file (no VTKFile element)");
    if (layout_.pieces.empty()) fail(ErrorKind::BadInput, path_ + ": the VTK XML file has no Piece");
    return std::move(layout_);
  }

 private:
  std::string_view required(const XmlTag& tag, std::string_view key) const {
    const auto value = tag.attribute(key);
    if (!value) error(std::string(tag.name) + " has no " + std::string(key));
    return *value;
  }

  void root(const XmlTag& tag) {
    if (required(tag, "type") != "PolyData")
      error("the file holds " + std::string(required(tag, "type")) + ", not PolyData");
    const std::string_view order = tag.attribute("byte_order").value_or("LittleEndian");
    if (order != "LittleEndian" && order != "BigEndian") error("unknown byte_order '" + std::string(order) + "'");
    layout_.binary.big_endian = order == "BigEndian";
    const std::string_view header = tag.attribute("header_type").value_or("UInt32");
    if (header != "UInt32" && header != "UInt64") error("unknown header_type '" + std::string(header) + "'");
    layout_.binary.header_size = header == "UInt64" ? 8 : 4;
    const auto compressor = tag.attribute("compressor");
    if (compressor && *compressor != "vtkZLibDataCompressor")
      error("data compressed by " + std::string(*compressor) +
            " cannot be read; only zlib (vtkZLibDataCompressor) is supported; save it with zlib or uncompressed");
    layout_.binary.zlib = compressor.has_value();
  }

  void piece(const XmlTag& tag) {
    Piece piece;
    piece.offset = tag_pos_;
    const std::string_view count = required(tag, "NumberOfPoints");
    if (!parse_count(count, piece.points))
      error("NumberOfPoints=\"" + std::string(count.substr(0, 40)) + "\" is not a non-negative integer below 2^64");
    layout_.pieces.push_back(piece);
  }

  void points_array(const XmlTag& tag) {
    PointsArray array;
    const std::string_view type = required(tag, "type");
    const auto number_type = vtk_xml_number_type(type);
    if (!number_type) error("the points' DataArray has unknown type '" + std::string(type.substr(0, 40)) + "'");
    array.type = *number_type;
    const std::string_view components = tag.attribute("NumberOfComponents").value_or("1");
    if (components != "3")
      error("the points' DataArray has NumberOfComponents=\"" + std::string(components.substr(0, 40)) +
            "\"; points have 3");
    array.format = required(tag, "format");
    if (array.format == "appended") {
      if (!parse_count(required(tag, "offset"), array.offset)) error("the points' DataArray has a bad offset");
    } else if (array.format != "ascii" && array.format != "binary") {
      error("the points' DataArray has unknown format '" + array.format.substr(0, 40) + "'");
    }
    array.content = tag.end;
    layout_.pieces.back().array = array;
  }

  void appended(const XmlTag& tag) {
    const std::string_view encoding = required(tag, "encoding");
    if (encoding != "raw" && encoding != "base64")
      error("AppendedData has unknown encoding '" + std::string(encoding) + "'");
    layout_.appended_base64 = encoding == "base64";
    const std::size_t underscore = bytes_.find('_', tag.end);
    if (underscore == std::string_view::npos) error("AppendedData has no '_' before its data");
    layout_.appended_start = underscore + 1;
  }

  [[noreturn]] void error(const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(line_of(bytes_, tag_pos_)) + ": " + why);
  }

  const std::string& path_;
  std::string_view bytes_;
  std::size_t tag_pos_ = 0;  // where the tag being read starts
  VtpLayout layout_;
};

// Reads one piece's points and appends them to `out`.
class PieceReader {
 public:
  PieceReader(const std::string& path, std::string_view bytes, const VtpLayout& layout, RunControl* control)
      : path_(path), bytes_(bytes), layout_(layout), control_(control) {}

  void read(const Piece& piece, std::size_t index, Coordinates<double>& out) {
    if (piece.points == 0) return;
    where_ = path_ + ": line " + std::to_string(line_at(piece.offset)) + ": piece " + std::to_string(index);
    if (!piece.array)
      fail(ErrorKind::BadInput, where_ + " has " + std::to_string(piece.points) + " points but no Points DataArray");
    const PointsArray& array = *piece.array;
    std::uint64_t values = 0, bytes = 0;
    if (!checked_multiply(piece.points, 3, values) || !checked_multiply(values, size_of(array.type), bytes))
      fail(ErrorKind::BadInput, where_ + ": NumberOfPoints " + std::to_string(piece.points) + " is too large");
    if (array.format == "ascii") return read_ascii(array, std::size_t(values), out);
    const std::string data = binary_data(array, std::size_t(bytes));
    const std::size_t first = out.size();
    out.resize(first + std::size_t(values));
    for (std::size_t i = 0; i < values; ++i) {
      if (control_ && i % (1 << 20) == 0) control_->throw_if_cancelled();
      out[first + i] = decode_number(data.data() + i * size_of(array.type), array.type, layout_.binary.big_endian);
    }
  }

 private:
  // The line of `offset`, counted on from the last piece's (pieces come in file order), so that many
  // pieces cost one pass over the file.
  std::size_t line_at(std::size_t offset) {
    if (offset < line_offset_) line_ = 1, line_offset_ = 0;
    line_ += std::size_t(
        std::count(bytes_.begin() + std::ptrdiff_t(line_offset_), bytes_.begin() + std::ptrdiff_t(offset), '\n'));
    line_offset_ = offset;
    return line_;
  }

  void read_ascii(const PointsArray& array, std::size_t values, Coordinates<double>& out) {
    const std::size_t close = bytes_.find('<', array.content);
    const std::string_view text =
        bytes_.substr(array.content, close == std::string_view::npos ? close : close - array.content);
    if (values > text.size() / 2 + 1)  // each value takes a character and a separator
      fail(ErrorKind::BadInput, where_ + ": " + std::to_string(values) + " values cannot fit in " +
                                    std::to_string(text.size()) + " characters of ascii data");
    const std::size_t first = out.size();
    out.resize(first + values);
    const auto place = [&](std::size_t i, std::size_t offset) {
      return path_ + ": line " + std::to_string(line_of(bytes_, array.content + offset)) + ": point " +
             std::to_string(i / 3) + ", component " + std::to_string(i % 3);
    };
    const std::size_t end = parse_number_list(text, values, array.type, out.data() + first, place, control_);
    if (text.substr(end).find_first_not_of(" \t\r\n") != std::string_view::npos)
      fail(ErrorKind::BadInput, where_ + ": the Points DataArray has more values than NumberOfPoints x 3");
  }

  std::string binary_data(const PointsArray& array, std::size_t bytes) {
    // Pieces may point at the same appended data: all their points together must come from the file.
    if (!checked_add(total_bytes_, bytes, total_bytes_) ||
        total_bytes_ / (layout_.binary.zlib ? kZlibMaxRatio : 1) > bytes_.size())
      fail(ErrorKind::BadInput, where_ + ": the points need " + std::to_string(total_bytes_) +
                                    " bytes of data, more than the file can hold");
    const std::size_t max_stream = max_vtk_stream_bytes(bytes, layout_.binary);
    if (array.format == "binary")
      return read_vtk_binary_array(decode_base64(bytes_.substr(array.content), max_stream, where_, control_), bytes,
                                   layout_.binary, where_, control_);
    if (!layout_.appended_start) fail(ErrorKind::BadInput, where_ + ": appended Points but no AppendedData");
    const std::string_view appended = bytes_.substr(*layout_.appended_start);
    if (array.offset > appended.size())
      fail(ErrorKind::BadInput,
           where_ + ": the Points' offset " + std::to_string(array.offset) + " is beyond the file's end");
    const std::string_view stream = appended.substr(std::size_t(array.offset));
    if (layout_.appended_base64)
      return read_vtk_binary_array(decode_base64(stream, max_stream, where_, control_), bytes, layout_.binary, where_,
                                   control_);
    return read_vtk_binary_array(stream, bytes, layout_.binary, where_, control_);
  }

  const std::string& path_;
  std::string_view bytes_;
  const VtpLayout& layout_;
  RunControl* control_;
  std::string where_;
  std::uint64_t total_bytes_ = 0;
  std::size_t line_ = 1, line_offset_ = 0;
};

}  // namespace

PointSet read_vtp(const std::string& path, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  const VtpLayout layout = VtpScanner(path, bytes).scan();
  Coordinates<double> coords;
  PieceReader reader(path, bytes, layout, control);
  for (std::size_t p = 0; p < layout.pieces.size(); ++p) {
    if (control) control->throw_if_cancelled();
    reader.read(layout.pieces[p], p, coords);
  }
  if (coords.empty()) fail(ErrorKind::BadInput, path + ": contains no points");
  const std::size_t n = coords.size() / 3;
  PointSet points(n, 3, std::move(coords));
  require_finite(points, path);
  points.column_names = {"x", "y", "z"};
  const auto& first = layout.pieces.front().array;
  points.source_type = first ? std::string(name_of(first->type)) : "float32";
  if (control) control->report(1.0);
  return points;
}

}  // namespace simjoin
