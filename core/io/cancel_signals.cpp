#include "core/io/cancel_signals.hpp"

#include <semaphore.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include "core/io/atomic_file.hpp"

namespace simjoin {

namespace {
constexpr int kCancelSignals[] = {SIGINT, SIGTERM, SIGHUP};
// How long a cancelled run may take to unwind before the process ends without it: the run checks for
// a cancel every few milliseconds, but a thread can sit longer in the kernel (a write held back while
// the system flushes other files' data, a page fault), where a signal does not reach it.
constexpr auto kUnwindGrace = std::chrono::milliseconds(50);

std::atomic<RunControl*> active_control{nullptr};
std::atomic<int> signals_received{0};
sem_t signal_arrived;

void on_cancel_signal(int) {
  RunControl* control = active_control.load();
  if (signals_received.fetch_add(1) == 0 && control) {
    // The run unwinds and removes its temporaries; the file system frees their space after the exit.
    defer_discarded_space_until_exit();
    control->request_cancel();
    sem_post(&signal_arrived);  // async-signal-safe: wakes the watchdog
    return;
  }
  remove_temporaries_in_signal_handler();
  _exit(kCancelledExitCode);
}

// Waits for the first signal, then gives the run kUnwindGrace to end by itself before ending the
// process, its temporaries removed, so that the exit follows the signal within 100 ms.
void watch_cancelled_runs() {
  while (sem_wait(&signal_arrived) != 0) {
  }
  std::this_thread::sleep_for(kUnwindGrace);
  remove_temporaries_before_exit();
  _exit(kCancelledExitCode);
}
}  // namespace

void handle_cancel_signals() {
  sem_init(&signal_arrived, 0, 0);
  std::thread(watch_cancelled_runs).detach();
  struct sigaction action {};
  action.sa_handler = on_cancel_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : kCancelSignals) sigaction(signal, &action, nullptr);
}

RunControl* cancel_on_signal(RunControl* control) { return active_control.exchange(control); }

}  // namespace simjoin
