#pragma once
// The GPU-required mode: with SIMJOIN_REQUIRE_GPU set (to anything but 0), a GPU test that would skip
// for want of a GPU fails instead, so that on the GPU machine (scripts/device-check sets it) a broken
// driver or GPU probe shows as failures, not as a suite of skips. Tests that need two GPUs still skip on
// one. Header-only and free of CUDA, for the GoogleTest and Qt Test binaries alike.
#include <cstdlib>
#include <string_view>

namespace simjoin::testing {

inline bool gpu_required() {
  const char* value = std::getenv("SIMJOIN_REQUIRE_GPU");
  return value && *value && std::string_view(value) != "0";
}

// The message of a GPU test that fails in that mode.
inline constexpr const char* kGpuRequiredMessage =
    "SIMJOIN_REQUIRE_GPU is set, so a missing GPU is a failure, not a skip: ";

}  // namespace simjoin::testing
