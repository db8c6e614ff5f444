#include "cuda/gpu_engine_base.hpp"

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin::gpu {

std::string select_device(const JoinParams& params) {
  const int device = params.devices.empty() ? 0 : params.devices.front();
  SIMJOIN_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp props{};
  SIMJOIN_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  return props.name;
}

Availability GpuEngine::availability() const {
  static const GpuStatus status = query_gpus();  // probing the runtime once is enough
  return {status.available, status.reason};
}

Capabilities GpuEngine::capabilities() const {
  Capabilities caps;
  caps.gpu = true;
  return caps;
}

}  // namespace simjoin::gpu
