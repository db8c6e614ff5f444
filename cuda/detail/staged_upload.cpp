#include "cuda/detail/staged_upload.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/device_pool.hpp"

namespace simjoin::gpu {

namespace {
constexpr std::size_t kChunkBytes = std::size_t(32) << 20;
constexpr std::size_t kPieceBytes = std::size_t(1) << 20;   // one host thread's share of a chunk at a time
constexpr std::size_t kDirectBytes = std::size_t(4) << 20;  // smaller copies go up as they are
}  // namespace

// Two pinned chunks and the events that mark the end of each chunk's last copy.
struct Stager {
  PinnedBuffer<char> chunks[2];
  cudaEvent_t copied[2] = {nullptr, nullptr};
  Stager() {
    for (int s = 0; s < 2; ++s) {
      chunks[s] = PinnedBuffer<char>(kChunkBytes, "upload staging buffer");
      SIMJOIN_CUDA_CHECK(cudaEventCreateWithFlags(&copied[s], cudaEventDisableTiming));
    }
  }
  ~Stager() {
    for (cudaEvent_t event : copied)
      if (event) cudaEventDestroy(event);
  }
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;
};

std::shared_ptr<DevicePool<Stager>> make_stager_pool() { return std::make_shared<DevicePool<Stager>>(); }

namespace {

void copy_in_parallel(char* target, const char* source, std::size_t bytes) {
  const std::int64_t pieces = std::int64_t((bytes + kPieceBytes - 1) / kPieceBytes);
  // The default team: a region of another size makes the other parallel regions of the run (the pair
  // list's copies) slower afterwards, by up to twice on W2.
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::size_t first = std::size_t(p) * kPieceBytes;
    std::memcpy(target + first, source + first, std::min(kPieceBytes, bytes - first));
  }
}
}  // namespace

void upload_staged(GpuResources& resources, void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  if (bytes < kDirectBytes) {
    SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  int current = 0;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&current));
  std::unique_ptr<Stager> stager = resources.stagers->acquire(current, [](int) { return std::make_unique<Stager>(); });
  const char* source = static_cast<const char*>(host);
  char* target = static_cast<char*>(device);
  try {
    for (std::size_t first = 0, chunk = 0; first < bytes; first += kChunkBytes, ++chunk) {
      const int s = int(chunk % 2);
      const std::size_t size = std::min(kChunkBytes, bytes - first);
      SIMJOIN_CUDA_CHECK(cudaEventSynchronize(stager->copied[s]));  // the chunk's previous copy is done
      copy_in_parallel(stager->chunks[s].data(), source + first, size);
      SIMJOIN_CUDA_CHECK(
          cudaMemcpyAsync(target + first, stager->chunks[s].data(), size, cudaMemcpyHostToDevice, stream));
      SIMJOIN_CUDA_CHECK(cudaEventRecord(stager->copied[s], stream));
    }
  } catch (...) {
    cudaStreamSynchronize(stream);  // no copy may still read the chunks the stager frees
    throw;
  }
  resources.stagers->release(current, std::move(stager));
}

}  // namespace simjoin::gpu
