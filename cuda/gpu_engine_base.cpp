#include "cuda/gpu_engine_base.hpp"

#include <cuda_runtime.h>

#include "core/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/gpu_engines.hpp"
#include "cuda/multi_device.hpp"

namespace simjoin::gpu {

std::string select_device(const JoinParams& params) {
  const std::vector<int> devices = run_devices(params);  // checks the ordinals
  if (devices.empty()) fail(ErrorKind::Unavailable, "no CUDA device");
  SIMJOIN_CUDA_CHECK(cudaSetDevice(devices.front()));
  return device_label({devices.front()});
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
