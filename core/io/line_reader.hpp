#pragma once
// Walks the lines of a buffer for the readers of line-based headers and bodies (PLY, legacy VTK).
#include <cstddef>
#include <string_view>

namespace simjoin {

class LineReader {
 public:
  // `lines_before`: how many lines precede `text` in its file, so that numbers name the file's lines.
  explicit LineReader(std::string_view text, std::size_t lines_before = 0) : text_(text), number_(lines_before) {}

  // The next line without its '\n' and a trailing '\r'; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  // The 1-based number of the line last returned.
  std::size_t number() const { return number_; }
  // The offset just past the line last returned (its '\n').
  std::size_t offset() const { return pos_ < text_.size() ? pos_ : text_.size(); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t number_;
};

}  // namespace simjoin
