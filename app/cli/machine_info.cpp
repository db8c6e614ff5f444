#include "app/cli/machine_info.hpp"

#include <fstream>
#include <thread>

#include "cuda/gpu_engines.hpp"

namespace simjoin::cli {

MachineInfo machine_info() {
  MachineInfo info;
  info.cpu_threads = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      info.cpu = line.substr(line.find(':') + 2);
      break;
    }
  if (info.cpu.empty()) info.cpu = "unknown CPU";
  const GpuStatus gpus = query_gpus();
  if (!gpus.available)
    info.gpu = "none (" + gpus.reason + ")";
  else
    info.gpu = (gpus.devices.size() > 1 ? std::to_string(gpus.devices.size()) + " x " : "") + gpus.devices.front().name;
  return info;
}

}  // namespace simjoin::cli
