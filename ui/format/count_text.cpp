#include "ui/format/count_text.hpp"

namespace simjoin::ui {

std::string count_text(std::uint64_t value) {
  std::string text = std::to_string(value);
  for (int at = int(text.size()) - 3; at > 0; at -= 3) text.insert(std::size_t(at), ",");
  return text;
}

}  // namespace simjoin::ui
