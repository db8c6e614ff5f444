// Built with and without CUDA: only query_gpus() differs (cuda/devices/query_gpus.cu or no_cuda.cpp).
#include <string>
#include <vector>

#include "cuda/gpu_engines.hpp"

namespace simjoin {

MachineInfo describe_machine(const GpuStatus& gpus) {
  std::vector<std::string> names;
  if (gpus.available)
    for (const GpuDevice& device : gpus.devices) names.push_back(device.name);
  return machine_info(describe_gpus(names, gpus.reason));
}

MachineInfo this_machine() { return describe_machine(query_gpus()); }

}  // namespace simjoin
