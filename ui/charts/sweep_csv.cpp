#include "ui/charts/sweep_csv.hpp"

#include "core/io/file_io.hpp"
#include "ui/export/csv_format.hpp"

namespace simjoin::ui {

void write_sweep_csv(const std::vector<SweepPoint>& points, const std::string& path) {
  std::string text =
      "engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,replicated_points,compared_pairs\n";
  for (const SweepPoint& point : points) {
    const RunStats& stats = point.stats;
    text += csv_field(point.engine) + ',' + format_number(point.eps) + ',' +
            (point.uses_k ? std::to_string(point.k) : "") + ',' + format_number(point.seconds.median) + ',' +
            format_number(point.seconds.min) + ',' + format_number(point.seconds.max) + ',' +
            std::to_string(point.timed_runs) + ',' + std::to_string(stats.pairs) + ',' +
            std::to_string(stats.replicated_points) + ',' + std::to_string(stats.compared_pairs) + '\n';
  }
  OutputFile file(path);
  file.write(text);
  file.close();
}

}  // namespace simjoin::ui
