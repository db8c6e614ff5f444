#pragma once
// The GPU side as the rest of the program sees it: device facts and the GPU engines, behind the
// common engine interface. Nothing here exposes CUDA types.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "core/report/machine_info.hpp"

namespace simjoin {

class ChoosingEngine;  // core/engines/choosing_engine.hpp
namespace gpu {
struct GpuResources;  // cuda/detail/gpu_resources.hpp
}

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

// The pinned buffers, streams and events that GPU runs reuse: one handle for all the GPU engines of a
// registry, so that they share them. Allocates nothing before a run asks. Its owners (the engines) must
// be destroyed while the CUDA runtime is up, not from a static that outlives main. Null where this
// build has no CUDA.
std::shared_ptr<gpu::GpuResources> make_gpu_resources();

// The GPU engines, every one running on `resources`; on machines without a usable GPU they report
// themselves unavailable. None where this build has no CUDA.
struct GpuEngines {
  std::vector<std::unique_ptr<Engine>> engines;  // in the order the programs list them
  // gpu-auto, one of `engines` (null where there are none): CPU `auto` takes its choice on a GPU machine.
  const ChoosingEngine* chooser = nullptr;
};
GpuEngines make_gpu_engines(const std::shared_ptr<gpu::GpuResources>& resources);

}  // namespace simjoin
