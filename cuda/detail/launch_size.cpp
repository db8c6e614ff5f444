#include "cuda/detail/launch_size.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

unsigned persistent_blocks(std::uint64_t items, int blocks_per_multiprocessor) {
  int device = 0, multiprocessors = 1;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  SIMJOIN_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(items, std::uint64_t(multiprocessors) * blocks_per_multiprocessor)));
}

std::uint64_t resident_blocks(const void* kernel, int threads, std::size_t shared_bytes) {
  int device = 0, multiprocessors = 1, per_multiprocessor = 1;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  SIMJOIN_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  SIMJOIN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, shared_bytes));
  return std::uint64_t(std::max(1, multiprocessors * per_multiprocessor));
}

}  // namespace simjoin::gpu
