#pragma once
// The machine a benchmark ran on, for its report.
#include <string>

namespace simjoin::cli {

struct MachineInfo {
  std::string cpu;
  unsigned cpu_threads = 0;
  std::string gpu;  // "none (<reason>)" without a usable GPU
};

MachineInfo machine_info();

}  // namespace simjoin::cli
