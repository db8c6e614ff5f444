#include "core/vtkio/ply_check.hpp"

#include <charconv>
#include <cstdint>
#include <map>
#include <sstream>
#include <string_view>

#include "core/error.hpp"

namespace simjoin {

namespace {
std::size_t type_size(const std::string& type) {
  static const std::map<std::string, std::size_t> sizes = {
      {"char", 1},  {"int8", 1},   {"uchar", 1},   {"uint8", 1},  {"short", 2},   {"int16", 2},
      {"ushort", 2}, {"uint16", 2}, {"int", 4},     {"int32", 4},  {"uint", 4},    {"uint32", 4},
      {"float", 4}, {"float32", 4}, {"double", 8}, {"float64", 8}};
  const auto it = sizes.find(type);
  return it == sizes.end() ? 0 : it->second;
}
}  // namespace

void check_ply_length(const std::string& path, const std::string& bytes) {
  const std::size_t end = bytes.find("end_header");
  if (bytes.rfind("ply", 0) != 0 || end == std::string::npos) return;  // the reader reports it
  const std::size_t data_start = bytes.find('\n', end);
  if (data_start == std::string::npos) return;

  std::istringstream header(bytes.substr(0, end));
  std::string line, format;
  std::uint64_t elements = 0;     // element instances declared
  std::uint64_t min_bytes = 0;    // binary: the least data those instances need
  std::uint64_t count = 0;        // instances of the element being declared
  for (std::istringstream words; std::getline(header, line);) {
    words.clear();
    words.str(line);
    std::string keyword, a, b;
    words >> keyword >> a;
    if (keyword == "format") {
      format = a;
    } else if (keyword == "element") {
      words >> b;
      if (std::from_chars(b.data(), b.data() + b.size(), count).ec != std::errc()) return;
      elements += count;
    } else if (keyword == "property") {
      // A list costs at least its count field; a scalar its size.
      const std::size_t size = type_size(a == "list" ? (words >> b, b) : a);
      if (size == 0) return;
      min_bytes += count * size;
    }
  }

  const std::string_view data = std::string_view(bytes).substr(data_start + 1);
  if (format == "ascii") {
    std::uint64_t lines = 0;
    for (std::size_t pos = 0; pos < data.size();) {
      std::size_t next = data.find('\n', pos);
      if (next == std::string_view::npos) next = data.size();
      if (data.substr(pos, next - pos).find_first_not_of(" \t\r") != std::string_view::npos) ++lines;
      pos = next + 1;
    }
    if (lines < elements)
      fail(ErrorKind::BadInput, path + ": truncated PLY file: the header declares " + std::to_string(elements) +
                                    " element lines, the file has " + std::to_string(lines));
  } else if (data.size() < min_bytes) {
    fail(ErrorKind::BadInput, path + ": truncated PLY file: the header declares at least " +
                                  std::to_string(min_bytes) + " bytes of data, the file has " +
                                  std::to_string(data.size()));
  }
}

}  // namespace simjoin
