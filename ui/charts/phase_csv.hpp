#pragma once
#include <string>
#include <vector>

#include "ui/charts/phase_chart.hpp"

namespace simjoin::ui {

// The phase chart's table, one row per run and phase (in stacking order, "other" last):
//   run,phase,seconds
// Hidden phases are written too (hiding is a display choice). Throws Error(Usage) naming the path
// when it cannot be written.
void write_phase_csv(const PhaseChart& chart, const std::string& path);

}  // namespace simjoin::ui
