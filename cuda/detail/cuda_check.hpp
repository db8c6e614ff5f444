#pragma once
// CUDA error handling and memory ownership shared by every GPU engine. Failures become
// simjoin::Error: allocation failures are OutOfMemory (with what was asked and what was free), so the
// CLI exits with code 4 and the GUI can fall back to a CPU engine.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "core/base/error.hpp"

namespace simjoin::gpu {

// Throws Error(Internal) for a failed CUDA call, naming the call site.
void check_cuda(cudaError_t status, const char* what, const char* file, int line);

#define SIMJOIN_CUDA_CHECK(call) ::simjoin::gpu::check_cuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports launch-configuration errors at once.
#define SIMJOIN_CUDA_CHECK_LAUNCH() ::simjoin::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

// The current GPU's free and total memory, in bytes. Throws Error(Internal) where the runtime cannot tell.
struct DeviceMemory {
  std::size_t free_bytes = 0, total_bytes = 0;
};
DeviceMemory device_memory();

// cudaMalloc that throws Error(OutOfMemory) with the requested and free sizes.
void* device_allocate(std::size_t bytes, const char* what);
// cudaMallocHost (pinned) that throws Error(OutOfMemory).
void* pinned_allocate(std::size_t bytes, const char* what);

// Owning device array of T.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, const char* what = "device buffer")
      : data_(count ? static_cast<T*>(device_allocate(count * sizeof(T), what)) : nullptr), size_(count) {}
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  void upload(const T* host, std::size_t count, cudaStream_t stream = 0) {
    SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void download(T* host, std::size_t count, cudaStream_t stream = 0) const {
    SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  // A copy on the current GPU of this buffer, which lives on GPU `owner`.
  DeviceBuffer copy_from(int owner, const char* what) const {
    DeviceBuffer copy(size_, what);
    int current = 0;
    SIMJOIN_CUDA_CHECK(cudaGetDevice(&current));
    if (size_) SIMJOIN_CUDA_CHECK(cudaMemcpyPeer(copy.data_, current, data_, owner, bytes()));
    return copy;
  }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Owning pinned host array of T (for overlapped device-to-host copies).
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count, const char* what = "pinned buffer")
      : data_(count ? static_cast<T*>(pinned_allocate(count * sizeof(T), what)) : nullptr), size_(count) {}
  ~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
  }
  PinnedBuffer(PinnedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Times a region on a stream with CUDA events; seconds() synchronises on the end event.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream = 0);
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void stop();
  double seconds();

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  bool stopped_ = false;
};

}  // namespace simjoin::gpu
