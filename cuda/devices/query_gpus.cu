#include <cuda_runtime.h>

#include "cuda/gpu_engines.hpp"

namespace simjoin {

GpuStatus query_gpus() {
  GpuStatus status;
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    status.reason = std::string("no usable CUDA device: ") + cudaGetErrorString(error);
    cudaGetLastError();  // clear the sticky error so later probes start clean
    return status;
  }
  if (count == 0) {
    status.reason = "no CUDA device found";
    return status;
  }
  int caller_device = 0;
  cudaGetDevice(&caller_device);  // restored below: probing each GPU makes it current
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    cudaDeviceProp props{};
    if (cudaGetDeviceProperties(&props, ordinal) != cudaSuccess) continue;
    GpuDevice device;
    device.ordinal = ordinal;
    device.name = props.name;
    device.compute_major = props.major;
    device.compute_minor = props.minor;
    device.multiprocessors = props.multiProcessorCount;
    device.total_bytes = props.totalGlobalMem;
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaSetDevice(ordinal) == cudaSuccess && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
      device.free_bytes = free_bytes;
    status.devices.push_back(device);
  }
  cudaSetDevice(caller_device);
  status.available = !status.devices.empty();
  if (!status.available) status.reason = "CUDA devices found but none could be queried";
  return status;
}

}  // namespace simjoin
