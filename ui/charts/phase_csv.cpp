#include "ui/charts/phase_csv.hpp"

#include "core/io/file_io.hpp"
#include "ui/export/csv_format.hpp"

namespace simjoin::ui {

void write_phase_csv(const PhaseChart& chart, const std::string& path) {
  std::string text = "run,phase,seconds\n";
  for (std::size_t bar = 0; bar < chart.bars().size(); ++bar)
    for (const QString& phase : chart.phases())
      text += csv_field(chart.bars()[bar].label.toStdString()) + ',' + csv_field(phase.toStdString()) + ',' +
              format_number(chart.seconds(bar, phase)) + '\n';
  OutputFile file(path);
  file.write(text);
  file.close();
}

}  // namespace simjoin::ui
