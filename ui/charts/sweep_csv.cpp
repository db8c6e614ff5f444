#include "ui/charts/sweep_csv.hpp"

#include "core/io/file_io.hpp"
#include "ui/export/csv_format.hpp"

namespace simjoin::ui {

void write_sweep_csv(const std::vector<SweepPoint>& points, const std::string& path) {
  std::string text = "engine,eps,k,pairs,seconds,replicated_points,compared_pairs\n";
  for (const SweepPoint& point : points) {
    const RunStats& stats = point.stats;
    text += csv_field(point.engine) + ',' + format_number(point.eps) + ',' + std::to_string(point.k) +
            ',' + std::to_string(stats.pairs) + ',' + format_number(stats.seconds_total) + ',' +
            std::to_string(stats.replicated_points) + ',' + std::to_string(stats.compared_pairs) + '\n';
  }
  OutputFile file(path);
  file.write(text);
  file.close();
}

}  // namespace simjoin::ui
