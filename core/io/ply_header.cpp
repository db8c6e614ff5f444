#include "core/io/ply_header.hpp"

#include <utility>

#include "core/base/error.hpp"
#include "core/io/line_reader.hpp"
#include "core/io/number_text.hpp"

namespace simjoin {

namespace {

const std::pair<std::string_view, NumberType> kPlyTypes[] = {
    {"char", NumberType::Int8},      {"int8", NumberType::Int8},       {"uchar", NumberType::UInt8},
    {"uint8", NumberType::UInt8},    {"short", NumberType::Int16},     {"int16", NumberType::Int16},
    {"ushort", NumberType::UInt16},  {"uint16", NumberType::UInt16},   {"int", NumberType::Int32},
    {"int32", NumberType::Int32},    {"uint", NumberType::UInt32},     {"uint32", NumberType::UInt32},
    {"float", NumberType::Float32},  {"float32", NumberType::Float32}, {"double", NumberType::Float64},
    {"float64", NumberType::Float64}};

}  // namespace

void split_ply_words(std::string_view line, std::vector<std::string_view>& words) {
  words.clear();
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    std::size_t end = pos;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    if (end > pos) words.push_back(line.substr(pos, end - pos));
    pos = end;
  }
}

namespace {

class HeaderParser {
 public:
  HeaderParser(const std::string& path, std::string_view bytes) : path_(path), lines_(bytes) {}

  PlyHeader parse() {
    std::string_view line;
    if (!lines_.next(line) || line != "ply") fail(ErrorKind::BadInput, path_ + ": not a PLY file (no 'ply' on line 1)");
    bool has_format = false;
    std::vector<std::string_view> words;
    for (;;) {
      if (!lines_.next(line)) error("the header has no end_header line");
      split_ply_words(line, words);
      if (words.empty() || words[0] == "comment" || words[0] == "obj_info") continue;
      if (words[0] == "end_header") break;
      if (words[0] == "format")
        parse_format(words), has_format = true;
      else if (words[0] == "element")
        parse_element(words);
      else if (words[0] == "property")
        parse_property(words);
      else
        error("unknown header keyword '" + std::string(words[0]) + "'");
    }
    if (!has_format) error("the header has no format line");
    header_.data_offset = lines_.offset();
    header_.lines = lines_.number();
    return std::move(header_);
  }

 private:
  void parse_format(const std::vector<std::string_view>& words) {
    if (words.size() != 3 || words[2] != "1.0")
      error("expected 'format ascii|binary_little_endian|binary_big_endian 1.0'");
    if (words[1] == "ascii")
      header_.format = PlyFormat::Ascii;
    else if (words[1] == "binary_little_endian")
      header_.format = PlyFormat::BinaryLittleEndian;
    else if (words[1] == "binary_big_endian")
      header_.format = PlyFormat::BinaryBigEndian;
    else
      error("unknown format '" + std::string(words[1]) + "'");
  }

  void parse_element(const std::vector<std::string_view>& words) {
    if (words.size() != 3) error("expected 'element NAME COUNT'");
    PlyElement element;
    element.name = words[1];
    if (!parse_count(words[2], element.count))
      error("element '" + element.name + "' has count '" + std::string(words[2]) +
            "'; a count must be a non-negative integer below 2^64");
    header_.elements.push_back(std::move(element));
  }

  void parse_property(const std::vector<std::string_view>& words) {
    if (header_.elements.empty()) error("a property before any element");
    PlyProperty property;
    if (words.size() == 5 && words[1] == "list") {
      property.list_count = type(words[2]);
      if (!is_integer(*property.list_count)) error("a list's length type must be an integer type");
      property.type = type(words[3]);
      property.name = words[4];
    } else if (words.size() == 3) {
      property.type = type(words[1]);
      property.name = words[2];
    } else {
      error("expected 'property TYPE NAME' or 'property list COUNT_TYPE TYPE NAME'");
    }
    header_.elements.back().properties.push_back(std::move(property));
  }

  NumberType type(std::string_view word) const {
    for (const auto& [name, type] : kPlyTypes)
      if (word == name) return type;
    error("unknown property type '" + std::string(word) + "'");
  }

  [[noreturn]] void error(const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(lines_.number()) + ": bad PLY header: " + why);
  }

  const std::string& path_;
  LineReader lines_;
  PlyHeader header_;
};

}  // namespace

PlyHeader parse_ply_header(const std::string& path, std::string_view bytes) {
  return HeaderParser(path, bytes).parse();
}

}  // namespace simjoin
