#pragma once
// A RunControl wired to the terminal: a progress bar on stderr when it is a terminal, and SIGINT
// (Ctrl-C), SIGTERM and SIGHUP turned into a clean cancel of the run under way (exit 130, temporary
// files removed); a second such signal, or one while no run is under way, ends the process at once
// with 130, still removing them.
#include <memory>

#include "core/run_control.hpp"

namespace simjoin::cli {

// Installs the handler of SIGINT, SIGTERM and SIGHUP for the whole process; call once, first thing.
void handle_cancel_signals();

class TerminalRun {
 public:
  TerminalRun();
  ~TerminalRun();
  TerminalRun(const TerminalRun&) = delete;
  TerminalRun& operator=(const TerminalRun&) = delete;
  RunControl& control() { return *control_; }

 private:
  std::unique_ptr<RunControl> control_;
  RunControl* outer_control_ = nullptr;  // that of an enclosing TerminalRun, active again after this one
};

}  // namespace simjoin::cli
