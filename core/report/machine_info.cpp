#include "core/report/machine_info.hpp"

#include <fstream>
#include <thread>

namespace simjoin {

MachineInfo machine_info(std::string gpu) {
  MachineInfo info;
  info.cpu_threads = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      info.cpu = line.substr(line.find(':') + 2);
      break;
    }
  if (info.cpu.empty()) info.cpu = "unknown CPU";
  info.gpu = std::move(gpu);
  return info;
}

std::string describe_gpus(const std::vector<std::string>& names, const std::string& no_gpu_reason) {
  if (names.empty()) return "none (" + no_gpu_reason + ")";
  return (names.size() > 1 ? std::to_string(names.size()) + " x " : "") + names.front();
}

std::string machine_line(const MachineInfo& machine) {
  return machine.cpu + ", " + std::to_string(machine.cpu_threads) + " threads; GPU: " + machine.gpu;
}

}  // namespace simjoin
