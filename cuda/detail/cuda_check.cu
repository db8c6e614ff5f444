#include <sstream>

#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

namespace {
std::string mebibytes(std::size_t bytes) {
  std::ostringstream out;
  out.precision(1);
  out << std::fixed << double(bytes) / (1024.0 * 1024.0) << " MiB";
  return out.str();
}
}  // namespace

void check_cuda(cudaError_t status, const char* what, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear non-sticky errors so the process stays usable
  const ErrorKind kind = status == cudaErrorMemoryAllocation ? ErrorKind::OutOfMemory : ErrorKind::Internal;
  fail(kind, std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                 "): " + cudaGetErrorString(status));
}

DeviceMemory device_memory() {
  DeviceMemory memory;
  SIMJOIN_CUDA_CHECK(cudaMemGetInfo(&memory.free_bytes, &memory.total_bytes));
  return memory;
}

void* device_allocate(std::size_t bytes, const char* what) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaSuccess) return pointer;
  cudaGetLastError();
  if (status != cudaErrorMemoryAllocation)
    fail(ErrorKind::Internal, std::string("cudaMalloc for ") + what + " failed: " + cudaGetErrorString(status));
  const DeviceMemory memory = device_memory();
  fail(ErrorKind::OutOfMemory, std::string("GPU out of memory allocating ") + what + ": asked for " + mebibytes(bytes) +
                                   ", " + mebibytes(memory.free_bytes) + " free of " + mebibytes(memory.total_bytes));
}

void* pinned_allocate(std::size_t bytes, const char* what) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status == cudaSuccess) return pointer;
  cudaGetLastError();
  fail(ErrorKind::OutOfMemory,
       std::string("out of pinned host memory allocating ") + what + ": asked for " + mebibytes(bytes));
}

EventTimer::EventTimer(cudaStream_t stream) : stream_(stream) {
  SIMJOIN_CUDA_CHECK(cudaEventCreate(&start_));
  SIMJOIN_CUDA_CHECK(cudaEventCreate(&stop_));
  SIMJOIN_CUDA_CHECK(cudaEventRecord(start_, stream_));
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::stop() {
  SIMJOIN_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  stopped_ = true;
}

double EventTimer::seconds() {
  if (!stopped_) stop();
  SIMJOIN_CUDA_CHECK(cudaEventSynchronize(stop_));
  float milliseconds = 0;
  SIMJOIN_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
  return milliseconds / 1000.0;
}

}  // namespace simjoin::gpu
