#include "core/cancel_signals.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>

#include "core/io/atomic_file.hpp"

namespace simjoin {

namespace {
constexpr int kCancelSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<RunControl*> active_control{nullptr};
std::atomic<int> signals_received{0};

void on_cancel_signal(int) {
  RunControl* control = active_control.load();
  if (signals_received.fetch_add(1) == 0 && control) {
    // The run unwinds and removes its temporaries; the file system frees their space after the exit.
    defer_discarded_space_until_exit();
    control->request_cancel();
    return;
  }
  remove_temporaries_in_signal_handler();
  _exit(kCancelledExitCode);
}
}  // namespace

void handle_cancel_signals() {
  struct sigaction action {};
  action.sa_handler = on_cancel_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : kCancelSignals) sigaction(signal, &action, nullptr);
}

RunControl* cancel_on_signal(RunControl* control) { return active_control.exchange(control); }

}  // namespace simjoin
