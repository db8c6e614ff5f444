#include "app/cli/terminal_progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/io/cancel_signals.hpp"

namespace simjoin::cli {

namespace {
// With SIMJOIN_PHASE_TRACE set, a line "phase NAME" on stderr as each phase starts: for the tests and
// benchmarks that signal a run in a given phase (tests/cli/signal_latency.py).
RunControl::ProgressCallback phase_lines() {
  auto last = std::make_shared<std::string>();
  return [last](double, const std::string& phase) {
    if (phase == *last) return;
    *last = phase;
    std::fprintf(stderr, "phase %s\n", phase.c_str());
    std::fflush(stderr);
  };
}

// Redraws at most ten times a second so that a fast run does not flood the terminal.
RunControl::ProgressCallback progress_bar() {
  if (std::getenv("SIMJOIN_PHASE_TRACE")) return phase_lines();
  if (!isatty(STDERR_FILENO)) return {};
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [last](double fraction, const std::string& phase) {
    const auto now = std::chrono::steady_clock::now();
    if (fraction < 1.0 && now - *last < std::chrono::milliseconds(100)) return;
    *last = now;
    const int width = 30, filled = int(fraction * width);
    std::fprintf(stderr, "\r[%.*s%*s] %3d%% %-12s", filled, "##############################", width - filled, "",
                 int(fraction * 100), phase.c_str());
    if (fraction >= 1.0) std::fprintf(stderr, "\r%*s\r", width + 20, "");
    std::fflush(stderr);
  };
}
}  // namespace

TerminalRun::TerminalRun() : control_(std::make_unique<RunControl>(progress_bar())) {
  outer_control_ = cancel_on_signal(control_.get());
}

TerminalRun::~TerminalRun() { cancel_on_signal(outer_control_); }

}  // namespace simjoin::cli
