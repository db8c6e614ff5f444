#pragma once
// The machine a measurement ran on, for benchmark reports and chart subtitles. Core knows no GPU:
// callers describe the GPUs (cuda/gpu_engines.hpp's query_gpus) with describe_gpus.
#include <string>
#include <vector>

namespace simjoin {

struct MachineInfo {
  std::string cpu;
  unsigned cpu_threads = 0;
  std::string gpu;  // "none (<reason>)" without a usable GPU
};

// This host's CPU model and thread count, with the caller's description of its GPUs.
MachineInfo machine_info(std::string gpu);

// "NVIDIA H100" or "2 x NVIDIA H100" (the first GPU's name), or "none (<reason>)" for no GPU.
std::string describe_gpus(const std::vector<std::string>& names, const std::string& no_gpu_reason);

// One line: "AMD EPYC 7B13, 2 threads; GPU: none (no CUDA device)".
std::string machine_line(const MachineInfo& machine);

}  // namespace simjoin
