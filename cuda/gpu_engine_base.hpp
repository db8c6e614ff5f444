#pragma once
// Common base of the GPU engines: availability from the CUDA runtime and the GPU capability flags.
#include "core/engine.hpp"

namespace simjoin::gpu {

class GpuEngine : public Engine {
 public:
  Availability availability() const override;
  Capabilities capabilities() const override;
};

}  // namespace simjoin::gpu
