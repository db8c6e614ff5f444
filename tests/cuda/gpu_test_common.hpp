#pragma once
// Shared by the GPU engine tests: the engines by name and a visible skip without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "core/engine.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin::testing {

// The registered GPU engine of that name (one registry for the whole test binary).
inline Engine& gpu_engine(const std::string& name) {
  static const EngineRegistry registry = [] {
    EngineRegistry r;
    register_gpu_engines(r);
    return r;
  }();
  return registry.get(name);
}

}  // namespace simjoin::testing

#define SIMJOIN_SKIP_WITHOUT_GPU()                                        \
  do {                                                                   \
    const ::simjoin::GpuStatus gpu_status = ::simjoin::query_gpus();     \
    if (!gpu_status.available) GTEST_SKIP() << gpu_status.reason;        \
  } while (0)
