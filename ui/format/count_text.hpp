#pragma once
// Counts as the views and panels print them: "165,690", digits grouped by three.
#include <cstdint>
#include <string>

namespace simjoin::ui {

std::string count_text(std::uint64_t value);

}  // namespace simjoin::ui
