#pragma once
// Human-readable summary of a finished run, shared by join and bench.
#include <string>

#include "core/join/run_stats.hpp"

namespace simjoin::cli {

std::string format_seconds(double seconds);
void print_run_summary(const RunStats& stats);

}  // namespace simjoin::cli
