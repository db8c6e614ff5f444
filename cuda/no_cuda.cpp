// Built when no CUDA compiler was found: the program still runs, on the CPU engines.
#include "cuda/gpu_engines.hpp"

namespace simjoin {

GpuStatus query_gpus() {
  GpuStatus status;
  status.reason = "this build has no CUDA support (no CUDA compiler was found at configure time)";
  return status;
}

void register_gpu_engines(EngineRegistry&) {}

}  // namespace simjoin
