#pragma once
// A RunControl wired to the terminal: a progress bar on stderr when it is a terminal, and Ctrl-C
// (SIGINT) turned into a clean cancel.
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
};

}  // namespace simjoin::cli
