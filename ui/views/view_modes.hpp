#pragma once
// The 2-D view modes, in one table that the view tabs, the View menu, the --view option and the tests
// read. A new mode is a value here, a row in view_modes.cpp and a case in build_layers
// (ui/views/view_layers.cpp; the compiler flags a missing case).
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace simjoin::ui {

enum class ViewMode { Scatter, Partitions, Replication, Grid };

struct ViewModeInfo {
  ViewMode mode;
  const char* title;   // the tab and the View menu entry
  const char* option;  // the --view value
  const char* what;    // the tab's tooltip
};

// Every mode, in tab order (the tab index is the row index).
std::span<const ViewModeInfo> view_modes();
const ViewModeInfo& view_mode_info(ViewMode mode);
std::optional<ViewMode> parse_view_mode(std::string_view option);
// "scatter, partitions, replication or grid": for help texts and errors.
std::string view_mode_options();

}  // namespace simjoin::ui
