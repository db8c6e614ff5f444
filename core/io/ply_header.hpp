#pragma once
// The header of a PLY file: its format and its elements with their properties.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/binary_values.hpp"

namespace simjoin {

enum class PlyFormat { Ascii, BinaryLittleEndian, BinaryBigEndian };

struct PlyProperty {
  std::string name;
  NumberType type = NumberType::Float32;  // of the value, or of a list's items
  std::optional<NumberType> list_count;   // set for a list property: the type of its length
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

struct PlyHeader {
  PlyFormat format = PlyFormat::Ascii;
  std::vector<PlyElement> elements;
  std::size_t data_offset = 0;  // the first byte after the end_header line
  std::size_t lines = 0;        // lines up to and including end_header
};

// The words of a line split on spaces and tabs, into `words` (cleared first).
void split_ply_words(std::string_view line, std::vector<std::string_view>& words);

// Parses the header at the start of `bytes`. Throws Error(BadInput) naming `path` and the line.
PlyHeader parse_ply_header(const std::string& path, std::string_view bytes);

}  // namespace simjoin
