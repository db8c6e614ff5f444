#include "app/cli/load_input.hpp"

#include <cstdio>

#include "app/cli/terminal_progress.hpp"
#include "core/io/load_points.hpp"

namespace simjoin::cli {

PointSet load_input(const std::string& path) {
  TerminalRun run;
  PointSet points = load_points(path, {}, &run.control());
  for (const std::string& warning : points.warnings)
    std::fprintf(stderr, "warning: %s: %s\n", path.c_str(), warning.c_str());
  return points;
}

}  // namespace simjoin::cli
