#include "app/cli/machine_info.hpp"

#include "cuda/gpu_engines.hpp"

namespace simjoin::cli {

MachineInfo this_machine() {
  const GpuStatus gpus = query_gpus();
  std::vector<std::string> names;
  for (const GpuDevice& device : gpus.devices) names.push_back(device.name);
  return machine_info(describe_gpus(gpus.available ? names : std::vector<std::string>{}, gpus.reason));
}

}  // namespace simjoin::cli
