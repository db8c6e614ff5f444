#include "cuda/gpu_engine_base.hpp"

#include "cuda/gpu_engines.hpp"

namespace simjoin::gpu {

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
