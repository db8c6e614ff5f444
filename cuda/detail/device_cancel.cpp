#include "cuda/detail/device_cancel.hpp"

#include <thread>

#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

DeviceCancel::DeviceCancel() {
  void* host = nullptr;
  // Portable: the multi-GPU engines' shares read it from every GPU.
  SIMJOIN_CUDA_CHECK(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable));
  host_word_ = static_cast<volatile unsigned*>(host);
  lower();
  void* device = nullptr;
  SIMJOIN_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  device_word_ = static_cast<const unsigned*>(device);
}

DeviceCancel::~DeviceCancel() { cudaFreeHost(const_cast<unsigned*>(host_word_)); }

void DeviceCancel::wait(cudaStream_t stream, const SharedProgress& progress) {
  cudaError_t status;
  // Polls as cudaStreamSynchronize spins by default, so a launch's end is seen as soon.
  while ((status = cudaStreamQuery(stream)) == cudaErrorNotReady) {
    if (progress.cancelled()) raise();
    std::this_thread::yield();
  }
  SIMJOIN_CUDA_CHECK(status);
  progress.throw_if_cancelled();
}

}  // namespace simjoin::gpu
