#include "ui/views/view_modes.hpp"

#include <array>

namespace simjoin::ui {

namespace {
constexpr std::array kModes = {
    ViewModeInfo{ViewMode::Scatter, "Scatter", "scatter", "The points in the chosen axes"},
    ViewModeInfo{ViewMode::Partitions, "Partitions", "partitions",
                 "KMEANS-JOIN's partitions: points in their partition's colour, numbered centroids"},
    ViewModeInfo{
        ViewMode::Replication, "Replication", "replication",
        "KMEANS-JOIN's eps-bound replication: bisector traces, eps-bands and the copies each partition receives"},
    ViewModeInfo{ViewMode::Grid, "Grid", "grid",
                 "GPU-SJ's eps-grid of the viewed axes: occupancy, and the cells a picked point searches (unicomp)"},
};
// view_mode_info indexes the table by the enum's value.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kModes.size(); ++i)
    if (static_cast<std::size_t>(kModes[i].mode) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());
}  // namespace

std::span<const ViewModeInfo> view_modes() { return kModes; }

const ViewModeInfo& view_mode_info(ViewMode mode) { return kModes[static_cast<std::size_t>(mode)]; }

std::optional<ViewMode> parse_view_mode(std::string_view option) {
  for (const ViewModeInfo& info : kModes)
    if (option == info.option) return info.mode;
  return std::nullopt;
}

std::string view_mode_options() {
  std::string text;
  for (std::size_t i = 0; i < kModes.size(); ++i) {
    if (i > 0) text += i + 1 == kModes.size() ? " or " : ", ";
    text += kModes[i].option;
  }
  return text;
}

}  // namespace simjoin::ui
