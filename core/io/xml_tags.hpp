#pragma once
// A minimal scanner of XML start and end tags with their attributes, enough for VTK's XML files
// (no entities, no namespaces); comments, declarations and processing instructions are skipped.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simjoin {

struct XmlTag {
  std::string_view name;  // "Piece"; "/Piece" for an end tag
  std::vector<std::pair<std::string_view, std::string_view>> attributes;
  std::size_t start = 0;  // the offset of its '<'
  std::size_t end = 0;    // the offset just past its '>'

  std::optional<std::string_view> attribute(std::string_view key) const;
};

// The next tag at or after `pos`, or nothing at the end of the text. Throws Error(BadInput) naming
// `path` and the line of a malformed tag.
std::optional<XmlTag> next_xml_tag(std::string_view text, std::size_t pos, const std::string& path);

// The 1-based line of `offset` in `text`, for messages.
std::size_t line_of(std::string_view text, std::size_t offset);

}  // namespace simjoin
