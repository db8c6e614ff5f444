#pragma once
// A RunControl wired to the terminal: a progress bar on stderr when it is a terminal, and the run
// that SIGINT (Ctrl-C), SIGTERM and SIGHUP cancel (core/io/cancel_signals.hpp) while it exists.
#include <memory>

#include "core/base/run_control.hpp"

namespace simjoin::cli {

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
