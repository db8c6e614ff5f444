#include "core/io/las_reader.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/base/error.hpp"
#include "core/io/binary_values.hpp"
#include "core/io/file_io.hpp"

namespace simjoin {

namespace {

constexpr std::uint64_t kCancelEvery = 1 << 20;
// The shortest point data record of each format 0..10 (LAS 1.4, table 7 onwards).
constexpr std::uint16_t kMinRecordLength[] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};

struct LasHeader {
  int minor = 0;
  std::uint16_t header_size = 0;
  std::uint32_t point_offset = 0;
  int point_format = 0;
  std::uint16_t record_length = 0;
  std::uint64_t count = 0;
  // Where data after the points begins (LAS 1.3's waveform records, 1.4's extended VLRs); 0 when none.
  std::uint64_t extra_data_start = 0;
  double scale[3] = {}, offset[3] = {};
};

std::uint64_t le(std::string_view bytes, std::size_t at, std::size_t size) {
  return decode_unsigned(bytes.data() + at, size, false);
}
double le_double(std::string_view bytes, std::size_t at) {
  return decode_number(bytes.data() + at, NumberType::Float64, false);
}

std::string laz_advice(const std::string& path) {
  return path +
         ": LAZ (compressed LAS) cannot be read; decompress it first, e.g. `laszip -i FILE.laz -o "
         "FILE.las` (LAStools) or `pdal translate FILE.laz FILE.las` (PDAL)";
}

// The header size each version needs: LAS 1.0-1.2 227 bytes, 1.3 235, 1.4 375.
std::size_t required_header_size(int minor) { return minor <= 2 ? 227 : minor == 3 ? 235 : 375; }

std::uint64_t point_count(const std::string& path, std::string_view bytes, const LasHeader& header) {
  const std::uint64_t legacy = le(bytes, 107, 4);
  if (header.minor < 4) return legacy;
  const std::uint64_t extended = le(bytes, 247, 8);
  if (legacy != 0 && extended != 0 && legacy != extended)
    fail(ErrorKind::BadInput, path + ": the LAS header's legacy point count " + std::to_string(legacy) +
                                  " differs from its point count " + std::to_string(extended));
  return extended != 0 ? extended : legacy;
}

LasHeader parse_header(const std::string& path, std::string_view bytes) {
  if (bytes.size() < 227 || bytes.substr(0, 4) != "LASF")
    fail(ErrorKind::BadInput, path + ": not a LAS file (no LASF signature or shorter than a LAS header)");
  LasHeader header;
  const int major = static_cast<unsigned char>(bytes[24]);
  header.minor = static_cast<unsigned char>(bytes[25]);
  if (major != 1 || header.minor > 4)
    fail(ErrorKind::BadInput, path + ": LAS version " + std::to_string(major) + "." + std::to_string(header.minor) +
                                  " is not supported (1.0 to 1.4 are)");
  header.header_size = std::uint16_t(le(bytes, 94, 2));
  header.point_offset = std::uint32_t(le(bytes, 96, 4));
  const int format_byte = static_cast<unsigned char>(bytes[104]);
  if (format_byte & 0xC0) fail(ErrorKind::BadInput, laz_advice(path));
  header.point_format = format_byte;
  header.record_length = std::uint16_t(le(bytes, 105, 2));
  if (header.header_size < required_header_size(header.minor) || header.header_size > bytes.size())
    fail(ErrorKind::BadInput, path + ": LAS 1." + std::to_string(header.minor) + " header size " +
                                  std::to_string(header.header_size) + " is below the " +
                                  std::to_string(required_header_size(header.minor)) +
                                  " bytes it needs or beyond the file's end");
  header.count = point_count(path, bytes, header);
  if (header.minor == 3) header.extra_data_start = le(bytes, 227, 8);
  if (header.minor == 4) {
    const std::uint64_t waveform = le(bytes, 227, 8), extended = le(bytes, 235, 8);
    header.extra_data_start = waveform == 0 || extended == 0 ? waveform + extended : std::min(waveform, extended);
  }
  for (int axis = 0; axis < 3; ++axis) {
    header.scale[axis] = le_double(bytes, 131 + 8 * std::size_t(axis));
    header.offset[axis] = le_double(bytes, 155 + 8 * std::size_t(axis));
  }
  return header;
}

void check_layout(const std::string& path, std::size_t file_size, const LasHeader& header) {
  if (header.point_format > 10)
    fail(ErrorKind::BadInput,
         path + ": LAS point data format " + std::to_string(header.point_format) + " is not supported (0 to 10 are)");
  const std::uint16_t minimum = kMinRecordLength[header.point_format];
  if (header.record_length < minimum)
    fail(ErrorKind::BadInput, path + ": LAS point record length " + std::to_string(header.record_length) +
                                  " is shorter than format " + std::to_string(header.point_format) + "'s " +
                                  std::to_string(minimum) + " bytes");
  if (header.point_offset < header.header_size || header.point_offset > file_size)
    fail(ErrorKind::BadInput, path + ": LAS offset to point data " + std::to_string(header.point_offset) +
                                  " is inside the header or beyond the file's end");
  std::uint64_t bytes = 0;
  if (!checked_multiply(header.count, header.record_length, bytes) || bytes > file_size - header.point_offset)
    fail(ErrorKind::BadInput, path + ": truncated LAS file: " + std::to_string(header.count) + " points of " +
                                  std::to_string(header.record_length) + " bytes need more than the " +
                                  std::to_string(file_size - header.point_offset) + " bytes after the header");
  if (header.count == 0) fail(ErrorKind::BadInput, path + ": contains no points");
  const std::uint64_t end = header.point_offset + bytes;
  if (end < file_size && header.extra_data_start != end)
    fail(ErrorKind::BadInput, path + ": " + std::to_string(file_size - end) + " bytes follow the " +
                                  std::to_string(header.count) + " points the LAS header declares, and the header " +
                                  "declares no records starting there: the point count does not match the data");
  for (int axis = 0; axis < 3; ++axis) {
    if (!std::isfinite(header.scale[axis]) || header.scale[axis] == 0 || !std::isfinite(header.offset[axis]))
      fail(ErrorKind::BadInput,
           path + ": the LAS header's scale and offset of " + "xyz"[axis] + " must be finite and the scale non-zero");
  }
}

}  // namespace

PointSet read_las(const std::string& path, RunControl* control) {
  if (lower_extension(path) == ".laz") fail(ErrorKind::BadInput, laz_advice(path));
  const std::string bytes = read_file_bytes(path, control);
  const LasHeader header = parse_header(path, bytes);
  check_layout(path, bytes.size(), header);
  PointSet points = PointSet::uninitialized(std::size_t(header.count), 3);
  const char* record = bytes.data() + header.point_offset;
  for (std::uint64_t i = 0; i < header.count; ++i, record += header.record_length) {
    if (control && i % kCancelEvery == 0) {
      control->throw_if_cancelled();
      control->report(double(i) / double(header.count));
    }
    double* point = points.point(std::size_t(i));
    for (int axis = 0; axis < 3; ++axis) {
      const double stored = decode_number(record + 4 * axis, NumberType::Int32, false);
      point[axis] = stored * header.scale[axis] + header.offset[axis];
    }
  }
  require_finite(points, path);
  points.column_names = {"x", "y", "z"};
  points.source_type = "int32 x scale + offset (LAS 1." + std::to_string(header.minor) + ", point format " +
                       std::to_string(header.point_format) + ")";
  if (control) control->report(1.0);
  return points;
}

}  // namespace simjoin
