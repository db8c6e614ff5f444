#include "app/cli/terminal_progress.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>

#include "core/io/atomic_file.hpp"

namespace simjoin::cli {

namespace {
constexpr int kCancelSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kCancelledExit = 130;

std::atomic<RunControl*> active_control{nullptr};
std::atomic<int> signals_received{0};

// The first signal cancels the run, which then removes its temporary files on the way out. A second
// one (or one while no run is under way) ends the process at once, removing them itself.
void on_cancel_signal(int) {
  RunControl* control = active_control.load();
  if (signals_received.fetch_add(1) == 0 && control) {
    control->request_cancel();
    return;
  }
  remove_temporaries_in_signal_handler();
  _exit(kCancelledExit);
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

void handle_cancel_signals() {
  struct sigaction action {};
  action.sa_handler = on_cancel_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : kCancelSignals) sigaction(signal, &action, nullptr);
}

TerminalRun::TerminalRun() : control_(std::make_unique<RunControl>(progress_bar())) {
  outer_control_ = active_control.exchange(control_.get());
}

TerminalRun::~TerminalRun() { active_control.store(outer_control_); }

}  // namespace simjoin::cli
