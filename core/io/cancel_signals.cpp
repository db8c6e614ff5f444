#include "core/io/cancel_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <thread>

#include "core/io/atomic_file.hpp"

namespace simjoin {

namespace {
constexpr int kCancelSignals[] = {SIGINT, SIGTERM, SIGHUP};
// How long a cancelled run may take to unwind before the process ends without it: the run checks for
// a cancel every few milliseconds, but a thread can sit longer in the kernel (a write held back while
// the system flushes other files' data, a page fault).
constexpr long kUnwindGraceNs = 50'000'000;

std::atomic<RunControl*> active_control{nullptr};

sigset_t cancel_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (const int signal : kCancelSignals) sigaddset(&set, signal);
  return set;
}

// The one thread the signals reach. A signal delivered to a thread held in the kernel (an fsync of
// the pair file) would run its handler only once that call returns, by when the file the signal was
// to stop is complete and renamed: here it is acted on at once. The first signal stops every commit
// and cancels the registered run, which then has kUnwindGraceNs to end by itself and remove its
// temporaries; then, or at a second signal, or at once when no run is registered, the process ends
// here, its temporaries removed.
void watch_signals() {
  const sigset_t set = cancel_signal_set();
  int received = 0;
  while (sigwait(&set, &received) != 0) {
  }
  refuse_commits();
  if (RunControl* control = active_control.load()) {
    // The run unwinds and removes its temporaries; the file system frees their space after the exit.
    defer_discarded_space_until_exit();
    control->request_cancel();
    const timespec grace{0, kUnwindGraceNs};
    sigtimedwait(&set, nullptr, &grace);
  }
  remove_temporaries_before_exit();
  _exit(kCancelledExitCode);
}
}  // namespace

void handle_cancel_signals() {
  // Blocked in this thread, and so in every thread started from it later, the watcher's included.
  const sigset_t set = cancel_signal_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(watch_signals).detach();
}

RunControl* cancel_on_signal(RunControl* control) { return active_control.exchange(control); }

}  // namespace simjoin
