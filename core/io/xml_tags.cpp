#include "core/io/xml_tags.hpp"

#include <algorithm>

#include "core/base/error.hpp"

namespace simjoin {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

class TagParser {
 public:
  TagParser(std::string_view text, std::size_t pos, const std::string& path) : text_(text), pos_(pos), path_(path) {}

  XmlTag parse() {
    const std::size_t start = pos_++;
    XmlTag tag;
    tag.start = start;
    tag.name = word(start);
    for (;;) {
      skip_space();
      if (pos_ >= text_.size()) error(start, "a tag is not closed");
      if (text_[pos_] == '>') break;
      if (text_.substr(pos_, 2) == "/>") {
        ++pos_;
        break;
      }
      const std::string_view key = word(start);
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '=') error(start, "attribute '" + std::string(key) + "' has no '='");
      ++pos_;
      skip_space();
      if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\''))
        error(start, "attribute '" + std::string(key) + "' has no quoted value");
      const std::size_t close = text_.find(text_[pos_], pos_ + 1);
      if (close == std::string_view::npos) error(start, "attribute '" + std::string(key) + "' is not closed");
      tag.attributes.emplace_back(key, text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
    }
    tag.end = pos_ + 1;
    return tag;
  }

 private:
  std::string_view word(std::size_t start) {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != '>' && text_[pos_] != '=' &&
           text_.substr(pos_, 2) != "/>")
      ++pos_;
    if (pos_ == begin) error(start, "a tag or attribute without a name");
    return text_.substr(begin, pos_ - begin);
  }
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  [[noreturn]] void error(std::size_t start, const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(line_of(text_, start)) + ": malformed XML: " + why);
  }

  std::string_view text_;
  std::size_t pos_;
  const std::string& path_;
};

}  // namespace

std::optional<std::string_view> XmlTag::attribute(std::string_view key) const {
  for (const auto& [name, value] : attributes)
    if (name == key) return value;
  return std::nullopt;
}

std::optional<XmlTag> next_xml_tag(std::string_view text, std::size_t pos, const std::string& path) {
  for (;;) {
    pos = text.find('<', pos);
    if (pos == std::string_view::npos) return std::nullopt;
    const std::string_view rest = text.substr(pos);
    std::string_view closer;
    if (rest.starts_with("<!--"))
      closer = "-->";
    else if (rest.starts_with("<?"))
      closer = "?>";
    else if (rest.starts_with("<!"))
      closer = ">";
    else
      return TagParser(text, pos, path).parse();
    const std::size_t end = text.find(closer, pos + 2);
    if (end == std::string_view::npos)
      fail(ErrorKind::BadInput, path + ": line " + std::to_string(line_of(text, pos)) + ": malformed XML: unclosed " +
                                    std::string(rest.substr(0, 4)));
    pos = end + closer.size();
  }
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n')) + 1;
}

}  // namespace simjoin
