// simjoin info FILE: what a point file holds.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/cli/commands.hpp"
#include "app/cli/load_input.hpp"
#include "core/frame/join_frame.hpp"
#include "core/points/eps_estimate.hpp"

namespace simjoin::cli {

Command add_info_command(CLI::App& app) {
  auto* command = app.add_subcommand("info", "Show n, d, coordinate ranges and load warnings of a point file");
  auto path = std::make_shared<std::string>();
  command->add_option("file", *path, "Point file (.csv .tsv .txt .npy .ply .vtp .vtk .las)")->required();
  return {command, [path] {
            const PointSet points = load_input(*path);
            std::printf("file:   %s\npoints: %zu\ndims:   %zu\nstored: float64 (the file's values, read as %s)\n",
                        path->c_str(), points.size(), points.dims(), points.source_type.c_str());
            const Bounds64 bounds = compute_bounds(points);
            const std::size_t shown = std::min<std::size_t>(points.dims(), 16);
            for (std::size_t k = 0; k < shown && !points.empty(); ++k) {
              const std::string name =
                  k < points.column_names.size() ? points.column_names[k] : "dim " + std::to_string(k);
              std::printf("  %-12s [%.10g, %.10g]\n", name.c_str(), bounds.low[k], bounds.high[k]);
            }
            if (shown < points.dims()) std::printf("  ... %zu more dimensions\n", points.dims() - shown);
            if (!points.labels.empty()) std::printf("labels: yes\n");
            if (!points.empty()) {
              // Joins compute in float32 around the middle of the data; rounding moves a distance by at most
              // this much, and pairs that close to eps are decided again from the file's values.
              const double error = JoinFrame(points, nullptr, 1.0).distance_error();
              if (std::isfinite(error))
                std::printf(
                    "float32 frame: distances within %.3g of eps are re-checked in float64; with eps below "
                    "%.3g most candidate pairs are (exact either way, slower)\n",
                    error, 8 * error);
              else
                std::printf(
                    "float32 frame: the coordinates' span exceeds float64's range, so no rounding bound "
                    "is given (joins are exact either way)\n");
            }
            if (points.size() >= 2) {
              // The suggestion the application shows on loading the file, by the same rule.
              RunControl control;
              const EpsEstimate estimate = estimate_eps(points, control);
              std::printf(
                  "eps:    %.6g suggested: the median distance from a point to its 10th neighbour (%zu points "
                  "measured against all %zu)\n",
                  estimate.eps, estimate.queries, estimate.reference);
            }
            return 0;
          }};
}

}  // namespace simjoin::cli
