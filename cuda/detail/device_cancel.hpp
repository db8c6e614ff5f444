#pragma once
// A cancel flag that running kernels read, so that a long launch stops within a few milliseconds of a
// cancel instead of at its end: one word of mapped pinned host memory. The host thread that waits for
// the kernels raises it once the run is cancelled (or its shares stopped); kernels read it at block
// barriers (cuda/device_cancel.cuh) and return early. A launch so stopped has partial results, which
// wait() never lets through: it throws Error(Cancelled) instead.
#include <cuda_runtime.h>

#include "core/base/run_control.hpp"

namespace simjoin::gpu {

// What a kernel gets: the device address of the flag.
struct CancelFlag {
  const volatile unsigned* word = nullptr;
};

class DeviceCancel {
 public:
  DeviceCancel();  // lowered
  ~DeviceCancel();
  DeviceCancel(const DeviceCancel&) = delete;
  DeviceCancel& operator=(const DeviceCancel&) = delete;

  CancelFlag flag() const { return {device_word_}; }
  // Makes every kernel that reads the flag stop at its next check.
  void raise() { *host_word_ = 1; }
  // For the next run; no kernel that reads the flag may still be running.
  void lower() { *host_word_ = 0; }
  // Waits until `stream` has done its work, raising the flag as soon as `progress` is cancelled; then
  // throws Error(Cancelled) if it is.
  void wait(cudaStream_t stream, const SharedProgress& progress);

 private:
  volatile unsigned* host_word_ = nullptr;
  const unsigned* device_word_ = nullptr;
};

}  // namespace simjoin::gpu
