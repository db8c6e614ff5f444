#pragma once
#include <string>
#include <vector>

#include "ui/charts/sweep_runner.hpp"

namespace simjoin::ui {

// The sweep's table, one row per point, units in the column names:
//   engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,replicated_points,compared_pairs
// Exact numbers; k is empty for an engine that ignores it. Throws Error(Usage) naming the path
// when it cannot be written.
void write_sweep_csv(const std::vector<SweepPoint>& points, const std::string& path);

}  // namespace simjoin::ui
