// simjoin info FILE: what a point file holds.
#include <algorithm>
#include <cstdio>

#include "app/cli/commands.hpp"
#include "app/cli/load_input.hpp"

namespace simjoin::cli {

Command add_info_command(CLI::App& app) {
  auto* command = app.add_subcommand("info", "Show n, d, coordinate ranges and load warnings of a point file");
  auto path = std::make_shared<std::string>();
  command->add_option("file", *path, "Point file (.csv .tsv .txt .npy .ply .vtp .vtk)")->required();
  return {command, [path] {
    const PointSet points = load_input(*path);
    std::printf("file:   %s\npoints: %zu\ndims:   %zu\nstored: float32\n", path->c_str(), points.size(),
                points.dims());
    const Bounds bounds = compute_bounds(points);
    const std::size_t shown = std::min<std::size_t>(points.dims(), 16);
    for (std::size_t k = 0; k < shown && !points.empty(); ++k) {
      const std::string name = k < points.column_names.size() ? points.column_names[k] : "dim " + std::to_string(k);
      std::printf("  %-12s [%g, %g]\n", name.c_str(), bounds.low[k], bounds.high[k]);
    }
    if (shown < points.dims()) std::printf("  ... %zu more dimensions\n", points.dims() - shown);
    if (!points.labels.empty()) std::printf("labels: yes\n");
    return 0;
  }};
}

}  // namespace simjoin::cli
