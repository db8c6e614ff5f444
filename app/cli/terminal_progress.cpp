#include "app/cli/terminal_progress.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>

namespace simjoin::cli {

namespace {
std::atomic<RunControl*> active_control{nullptr};

void on_interrupt(int) {
  if (RunControl* control = active_control.load()) control->request_cancel();
}

// Redraws at most ten times a second so that a fast run does not flood the terminal.
RunControl::ProgressCallback progress_bar() {
  if (!isatty(STDERR_FILENO)) return {};
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [last](double fraction, const std::string& phase) {
    const auto now = std::chrono::steady_clock::now();
    if (fraction < 1.0 && now - *last < std::chrono::milliseconds(100)) return;
    *last = now;
    const int width = 30, filled = int(fraction * width);
    std::fprintf(stderr, "\r[%.*s%*s] %3d%% %-12s", filled, "##############################",
                 width - filled, "", int(fraction * 100), phase.c_str());
    if (fraction >= 1.0) std::fprintf(stderr, "\r%*s\r", width + 20, "");
    std::fflush(stderr);
  };
}
}  // namespace

TerminalRun::TerminalRun() : control_(std::make_unique<RunControl>(progress_bar())) {
  active_control.store(control_.get());
  std::signal(SIGINT, on_interrupt);
}

TerminalRun::~TerminalRun() {
  std::signal(SIGINT, SIG_DFL);
  active_control.store(nullptr);
}

}  // namespace simjoin::cli
