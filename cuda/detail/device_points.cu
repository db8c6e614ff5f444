#include "cuda/detail/device_points.hpp"

#include <cstdint>

#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/staged_upload.hpp"

namespace simjoin::gpu {

namespace {
// Row i of the dense n x dims input into row i of the padded n x stride array, zeros after dims.
__global__ void pad_rows_kernel(const float* dense, std::uint64_t n, unsigned dims, unsigned stride, float* padded) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n * stride) return;
  const std::uint64_t row = t / stride;
  const unsigned column = unsigned(t % stride);
  padded[t] = column < dims ? dense[row * dims + column] : 0.0f;
}
}  // namespace

// The points go up as they are, through pinned staging; rows are padded on the device where needed.
DevicePoints upload_points(GpuResources& resources, const PointSet32& points, std::size_t row_multiple,
                           cudaStream_t stream) {
  DevicePoints result;
  result.n = points.size();
  result.stride = (points.dims() + row_multiple - 1) / row_multiple * row_multiple;
  result.coords = DeviceBuffer<float>(result.n * result.stride, "point coordinates");
  if (result.stride == points.dims()) {
    upload_staged(resources, result.coords.data(), points.data(), result.coords.bytes(), stream);
  } else if (result.n > 0) {
    DeviceBuffer<float> dense(result.n * points.dims(), "unpadded point coordinates");
    upload_staged(resources, dense.data(), points.data(), dense.bytes(), stream);
    constexpr unsigned kThreads = 256;
    const std::uint64_t items = std::uint64_t(result.n) * result.stride;
    pad_rows_kernel<<<blocks_for(items, kThreads), kThreads, 0, stream>>>(
        dense.data(), result.n, unsigned(points.dims()), unsigned(result.stride), result.coords.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `dense` is freed
  }
  // No wait here: the copy's last part overlaps the caller's next upload. PairBatches (and Phase)
  // wait for the default stream before kernels on other streams read the points.
  return result;
}

}  // namespace simjoin::gpu
