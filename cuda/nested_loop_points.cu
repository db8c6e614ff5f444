#include "cuda/nested_loop_points.hpp"

#include <algorithm>
#include <vector>

namespace simjoin::gpu {

std::size_t padded_stride(std::size_t dims) { return (dims + 3) / 4 * 4; }

DevicePoints upload_points(const PointSet& points, cudaStream_t stream) {
  DevicePoints result;
  result.n = points.size();
  result.stride = padded_stride(points.dims());
  result.coords = DeviceBuffer<float>(result.n * result.stride, "point coordinates");
  std::vector<float> padded(result.n * result.stride, 0.0f);
  for (std::size_t i = 0; i < result.n; ++i)
    std::copy_n(points.point(i), points.dims(), padded.data() + i * result.stride);
  result.coords.upload(padded.data(), padded.size(), stream);
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

std::string select_device(const JoinParams& params) {
  const int device = params.devices.empty() ? 0 : params.devices.front();
  SIMJOIN_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp props{};
  SIMJOIN_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  return props.name;
}

}  // namespace simjoin::gpu
