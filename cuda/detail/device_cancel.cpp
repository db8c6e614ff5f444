#include "cuda/detail/device_cancel.hpp"

#include <thread>

#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

DeviceCancel::DeviceCancel() {
  try {
    allocate();
    raised_ = true;
    lower();
  } catch (...) {
    release();  // the destructor does not run for an object whose constructor throws
    throw;
  }
}

DeviceCancel::~DeviceCancel() { release(); }

void DeviceCancel::allocate() {
  void* host = nullptr;
  SIMJOIN_CUDA_CHECK(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocDefault));
  host_word_ = static_cast<unsigned*>(host);
  *host_word_ = 1;
  void* device = nullptr;
  SIMJOIN_CUDA_CHECK(cudaMalloc(&device, sizeof(unsigned)));
  device_word_ = static_cast<unsigned*>(device);
  SIMJOIN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

void DeviceCancel::release() noexcept {
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  if (device_word_) cudaFree(device_word_);
  if (host_word_) cudaFreeHost(host_word_);
  stream_ = nullptr;
  device_word_ = nullptr;
  host_word_ = nullptr;
}

void DeviceCancel::raise() noexcept {
  if (raised_) return;
  raised_ = true;
  // Unchecked: raise() runs while a run unwinds, and a failed copy leaves kernels to end as they would;
  // its error is cleared, so that the next launch check does not report it as its own.
  if (cudaMemcpyAsync(device_word_, host_word_, sizeof(unsigned), cudaMemcpyHostToDevice, stream_) != cudaSuccess)
    (void)cudaGetLastError();
}

void DeviceCancel::lower() {
  if (!raised_) return;
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the raise's copy is done before the word is cleared
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(device_word_, 0, sizeof(unsigned), stream_));
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  raised_ = false;
}

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
