#pragma once
// Shared by the GPU engine tests: the engines by name and a visible skip without a GPU (a failure in
// the GPU-required mode, tests/core/gpu_required.hpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/join/engine.hpp"
#include "cuda/gpu_engines.hpp"
#include "tests/core/gpu_required.hpp"

namespace simjoin::testing {

// Every GPU engine, registered once for the whole test binary; never destroyed, since its engines'
// pinned buffers must not be freed after the CUDA runtime has shut down.
inline const EngineRegistry& gpu_registry() {
  static const EngineRegistry* registry = [] {
    auto* made = new EngineRegistry;
    for (auto& engine : make_gpu_engines(make_gpu_resources()).engines) made->add(std::move(engine));
    return made;
  }();
  return *registry;
}

// The registered GPU engine of that name.
inline Engine& gpu_engine(const std::string& name) { return gpu_registry().get(name); }

// The names of the GPU engines that claim exactness (Capabilities::exact).
inline std::vector<std::string> exact_gpu_engine_names() {
  std::vector<std::string> names;
  for (const auto& engine : gpu_registry().engines())
    if (engine->capabilities().exact) names.push_back(engine->name());
  return names;
}

}  // namespace simjoin::testing

// Skips the test where no GPU is found; fails it instead in the GPU-required mode.
#define SIMJOIN_SKIP_WITHOUT_GPU()                                                    \
  do {                                                                                \
    const ::simjoin::GpuStatus gpu_status = ::simjoin::query_gpus();                  \
    if (!gpu_status.available) {                                                      \
      if (::simjoin::testing::gpu_required())                                         \
        GTEST_FAIL() << ::simjoin::testing::kGpuRequiredMessage << gpu_status.reason; \
      GTEST_SKIP() << gpu_status.reason;                                              \
    }                                                                                 \
  } while (0)
