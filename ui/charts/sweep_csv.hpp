#pragma once
#include <string>
#include <vector>

#include "ui/charts/sweep_runner.hpp"

namespace simjoin::ui {

// One row per run: engine,eps,k,pairs,seconds,replicated_points,compared_pairs (exact numbers).
// Throws Error(Usage) naming the path when it cannot be written.
void write_sweep_csv(const std::vector<SweepPoint>& points, const std::string& path);

}  // namespace simjoin::ui
