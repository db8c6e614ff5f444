#pragma once
// The pinned buffers, streams and events that GPU runs reuse (allocating pinned memory costs
// milliseconds), owned by whoever runs the engines rather than by the process: the composition root
// (app/registry/) makes one handle (make_gpu_resources) and gives it to every GPU engine of a registry
// as it constructs them, a re-join session holds its own, and each run passes it down to what
// allocates, as cuVS passes its resources handle. Nothing is allocated before a run asks. Destroy it
// while the CUDA runtime is up, not from a static that outlives main.
#include <memory>

#include "cuda/detail/device_pool.hpp"

namespace simjoin::gpu {

struct PairSlots;  // two result slots of a GPU (pair_batches.cu)
struct Stager;     // two pinned upload chunks of a GPU (staged_upload.cpp)

// Empty pools, made where their resources are defined.
std::shared_ptr<DevicePool<PairSlots>> make_pair_slot_pool();
std::shared_ptr<DevicePool<Stager>> make_stager_pool();

struct GpuResources {
  GpuResources();
  std::shared_ptr<DevicePool<PairSlots>> pair_slots;
  std::shared_ptr<DevicePool<Stager>> stagers;
};

}  // namespace simjoin::gpu
