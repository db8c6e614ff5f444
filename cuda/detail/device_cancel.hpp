#pragma once
// A cancel flag that running kernels read, so that a long launch stops within a few milliseconds of a
// cancel instead of at its end: one word of device memory, which the host thread that waits for the
// kernels raises once the run is cancelled (or its shares stopped) by copying a word of pinned host
// memory onto it on a stream of its own. The copy engine makes that copy beside the running kernels; a
// memset would be a kernel, and wait for them. Kernels read the word at block barriers or every few
// thousand steps of a thread (cuda/device_cancel.cuh) and return early. It was a word of mapped host
// memory, read over the bus: reads from gpu-grid's threads made W1 eight times slower on an H100, and
// gpu-boehm's W3 runs 40 % faster since. A launch so stopped has partial results, which wait() never
// lets through: it throws Error(Cancelled) instead.
#include <cuda_runtime.h>

#include "core/base/run_control.hpp"

namespace simjoin::gpu {

// What a kernel gets: the device address of the flag.
struct CancelFlag {
  const volatile unsigned* word = nullptr;
};

class DeviceCancel {
 public:
  DeviceCancel();  // on the current GPU, lowered
  ~DeviceCancel();
  DeviceCancel(const DeviceCancel&) = delete;
  DeviceCancel& operator=(const DeviceCancel&) = delete;

  CancelFlag flag() const { return {device_word_}; }
  // Makes every kernel that reads the flag stop at its next check. The first call after lower()
  // starts the copy; the others do nothing.
  void raise() noexcept;
  // For the next run; no kernel that reads the flag may still be running.
  void lower();
  // Waits until `stream` has done its work, raising the flag as soon as `progress` is cancelled; then
  // throws Error(Cancelled) if it is.
  void wait(cudaStream_t stream, const SharedProgress& progress);

 private:
  void allocate();          // the words and the stream; throws Error where CUDA fails
  void release() noexcept;  // what allocate() got, all or part

  unsigned* host_word_ = nullptr;  // pinned, 1: what raise() copies
  unsigned* device_word_ = nullptr;
  cudaStream_t stream_ = nullptr;
  bool raised_ = false;
};

}  // namespace simjoin::gpu
