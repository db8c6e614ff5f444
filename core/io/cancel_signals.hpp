#pragma once
// SIGINT (Ctrl-C), SIGTERM and SIGHUP turned into a clean cancel, for every program of the project
// (simjoin, simjoin-sweep, simjoin-studio). The first signal cancels the run whose RunControl is
// registered, which then removes its temporary files on the way out and ends with exit 130; a second
// signal, or one while no run is registered, ends the process at once with 130, removing every
// temporary of core/io/atomic_file.hpp itself. A run that has not ended 50 ms after the first signal
// (a thread held in the kernel, where no signal reaches it) is ended the same way, so that the exit
// follows the signal within 100 ms. An older file of an output's name is kept either way.
#include "core/base/run_control.hpp"

namespace simjoin {

inline constexpr int kCancelledExitCode = 130;

// Installs the handler of SIGINT, SIGTERM and SIGHUP for the whole process, and starts the thread that
// ends a run slow to unwind; call once, first thing.
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
