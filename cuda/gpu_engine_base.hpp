#pragma once
// Common base of the GPU engines: availability from the CUDA runtime and the GPU capability flags.
#include "core/engine.hpp"

namespace simjoin::gpu {

// Makes the GPU that params.devices names (default 0) current and returns its name for RunStats.
std::string select_device(const JoinParams& params);

class GpuEngine : public Engine {
 public:
  Availability availability() const override;
  Capabilities capabilities() const override;
};

}  // namespace simjoin::gpu
