#pragma once
// The GPU side as the rest of the program sees it: device facts and the GPU engines, behind the
// common engine interface. Nothing here exposes CUDA types.
#include <cstdint>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "core/report/machine_info.hpp"

namespace simjoin {

struct GpuDevice {
  int ordinal = 0;
  std::string name;
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
};

struct GpuStatus {
  bool available = false;
  std::string reason;  // why no GPU can be used, when unavailable
  std::vector<GpuDevice> devices;
};

// Probes the CUDA runtime; never throws.
GpuStatus query_gpus();

// The one description of this machine, for reports and chart subtitles: core's CPU part
// (core/report/machine_info.hpp) with the GPUs `gpus` lists, or "none (<reason>)".
MachineInfo describe_machine(const GpuStatus& gpus);
// describe_machine(query_gpus()).
MachineInfo this_machine();

// Adds every GPU engine; on machines without a usable GPU they report themselves unavailable.
void register_gpu_engines(EngineRegistry& registry);

// Adds every CPU engine, then every GPU engine: the registry of each program and of the Python module.
inline void register_every_engine(EngineRegistry& registry) {
  register_cpu_engines(registry);
  register_gpu_engines(registry);
}

}  // namespace simjoin
