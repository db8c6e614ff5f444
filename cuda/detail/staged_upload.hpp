#pragma once
// Host-to-device copies of large pageable arrays at the link's speed. The driver stages a pageable copy
// through its own pinned buffer on one thread, which on a fast link is several times slower than the
// link; here host threads fill one of two pinned chunks while the other one's copy is in flight.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

// Enqueues the copy of `bytes` from `host` (pageable memory) to `device` on `stream`, through a stager
// leased from `resources`. When it returns, `host` may be reused; the copy may still be in flight on
// the stream, as with cudaMemcpyAsync.
void upload_staged(GpuResources& resources, void* device, const void* host, std::size_t bytes, cudaStream_t stream = 0);

}  // namespace simjoin::gpu
