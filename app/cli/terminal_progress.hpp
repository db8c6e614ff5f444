#pragma once
// A RunControl wired to the terminal: a progress bar on stderr when it is a terminal, and SIGINT
// (Ctrl-C), SIGTERM and SIGHUP turned into a clean cancel (exit 130, temporary files removed); a
// second such signal ends the process at once, still removing them.
#include <memory>

#include "core/run_control.hpp"

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
