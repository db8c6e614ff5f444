#pragma once
// SIGINT (Ctrl-C), SIGTERM and SIGHUP turned into a clean cancel, for every program of the project
// (simjoin, simjoin-sweep, simjoin-studio). The signals are blocked in every thread but one that waits
// for them, so that a thread held in the kernel (writing or syncing a file) cannot hold a signal back.
// The first signal refuses every later commit of an output file (core/io/atomic_file.hpp) and cancels
// the run whose RunControl is registered, which then removes its temporary files on the way out and
// ends with exit 130; a second signal, or one while no run is registered, ends the process at once
// with 130, removing every temporary itself. A run that has not ended 50 ms after the first signal is
// ended the same way, so that the exit follows the signal within 100 ms. An older file of an output's
// name is kept either way.
#include "core/base/run_control.hpp"

namespace simjoin {

inline constexpr int kCancelledExitCode = 130;

// Blocks SIGINT, SIGTERM and SIGHUP and starts the thread that handles them; call once, first thing,
// before any other thread starts (threads inherit the blocked signals).
void handle_cancel_signals();

// Makes `control` the run a signal cancels (nullptr: none); returns the one registered before.
RunControl* cancel_on_signal(RunControl* control);

// Registers `control` for as long as it lives, then the one registered before again.
class CancelOnSignal {
 public:
  explicit CancelOnSignal(RunControl& control) : outer_(cancel_on_signal(&control)) {}
  ~CancelOnSignal() { cancel_on_signal(outer_); }
  CancelOnSignal(const CancelOnSignal&) = delete;
  CancelOnSignal& operator=(const CancelOnSignal&) = delete;

 private:
  RunControl* outer_;
};

}  // namespace simjoin
