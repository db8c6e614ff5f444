#include "app/cli/run_summary.hpp"

#include <cstdio>

namespace simjoin::cli {

std::string format_seconds(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.1f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  return text;
}

void print_run_summary(const RunStats& stats) {
  std::printf("engine:   %s on %s\n", stats.engine.c_str(), stats.device.c_str());
  if (stats.n_b)
    std::printf("input:    A %llu points, B %llu points, d = %llu, eps = %g\n", (unsigned long long)stats.n,
                (unsigned long long)stats.n_b, (unsigned long long)stats.d, stats.eps);
  else
    std::printf("input:    %llu points, d = %llu, eps = %g (self-join)\n", (unsigned long long)stats.n,
                (unsigned long long)stats.d, stats.eps);
  std::printf("pairs:    %llu\n", (unsigned long long)stats.pairs);
  std::printf("time:     %s\n", format_seconds(stats.seconds_total).c_str());
  for (const PhaseTime& phase : stats.phases)
    std::printf("  %-14s %s\n", phase.name.c_str(), format_seconds(phase.seconds).c_str());
  if (stats.compared_pairs)
    std::printf("compared: %llu distance tests (%.4g%% of all candidate pairs)\n",
                (unsigned long long)stats.compared_pairs, 100.0 * stats.compared_ratio());
  if (stats.estimated_tests)
    std::printf("estimate: %llu distance tests by the index before the join\n",
                (unsigned long long)stats.estimated_tests);
  if (stats.k)
    std::printf("k:        %d partitions, %llu replicated points\n", stats.k,
                (unsigned long long)stats.replicated_points);
  for (const std::string& note : stats.notes) std::printf("note:     %s\n", note.c_str());
}

}  // namespace simjoin::cli
