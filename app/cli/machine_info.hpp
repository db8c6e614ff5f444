#pragma once
// This machine as the CLI reports it: core's CPU description with the GPUs the CUDA runtime sees.
#include "core/machine_info.hpp"

namespace simjoin::cli {

MachineInfo this_machine();

}  // namespace simjoin::cli
