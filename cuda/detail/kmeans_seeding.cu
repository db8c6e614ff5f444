#include "cuda/detail/kmeans_seeding.hpp"

#include <cub/cub.cuh>

#include <random>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/launch_size.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 256;

// Folds every sample point's squared distance to `centre` (the centre just chosen) into `nearest`.
__global__ void nearer_kernel(const float* sample, std::uint32_t n, unsigned stride, unsigned dims, const float* centre,
                              bool first, double* nearest) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double distance = squared_distance(sample + i * stride, centre, int(dims), INFINITY);
  nearest[i] = first ? distance : fmin(nearest[i], distance);
}

// Copies into `centre` the sample point at which the cumulative weights first pass draw x total, or the
// point at draw x n where every weight is zero (all points equal). Rounding at the very end of the sums
// can, rarely, draw a point of zero weight, a centre again: its partition stays empty, which k-means
// and the join tolerate.
__global__ void draw_kernel(const float* sample, std::uint32_t n, unsigned stride, const double* cumulative,
                            double draw, float* centre) {
  __shared__ std::uint32_t chosen;
  if (threadIdx.x == 0) {
    const double total = cumulative[n - 1];
    if (total > 0) {
      const double target = draw * total;
      std::uint32_t low = 0, high = n - 1;
      while (low < high) {
        const std::uint32_t middle = low + (high - low) / 2;
        if (cumulative[middle] > target)
          high = middle;
        else
          low = middle + 1;
      }
      chosen = low;
    } else {
      chosen = min(n - 1, std::uint32_t(draw * double(n)));
    }
  }
  __syncthreads();
  for (unsigned t = threadIdx.x; t < stride; t += blockDim.x) centre[t] = sample[std::size_t(chosen) * stride + t];
}
}  // namespace

DeviceBuffer<float> kmeans_plus_plus(const DevicePoints& sample, std::size_t dims, std::size_t k, std::uint64_t seed) {
  const std::uint32_t n = std::uint32_t(sample.n);
  const std::size_t stride = sample.stride;
  DeviceBuffer<float> centres(k * stride, "k-means seeds");
  DeviceBuffer<double> nearest(n, "k-means++ weights"), cumulative(n, "k-means++ cumulative weights");
  std::size_t scan_bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, nearest.data(), cumulative.data(), n));
  DeviceBuffer<char> scan_space(scan_bytes, "k-means++ scan workspace");
  std::mt19937_64 random(seed);
  const std::size_t first = std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(centres.data(), sample.coords.data() + first * stride, stride * sizeof(float),
                                     cudaMemcpyDeviceToDevice));
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t c = 1; c < k; ++c) {
    nearer_kernel<<<blocks_for(n, kThreads), kThreads>>>(sample.coords.data(), n, unsigned(stride), unsigned(dims),
                                                         centres.data() + (c - 1) * stride, c == 1, nearest.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    SIMJOIN_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(scan_space.data(), scan_bytes, nearest.data(), cumulative.data(), n));
    draw_kernel<<<1, 128>>>(sample.coords.data(), n, unsigned(stride), cumulative.data(), uniform(random),
                            centres.data() + c * stride);
    SIMJOIN_CUDA_CHECK_LAUNCH();
  }
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));  // before the weights are freed
  return centres;
}

}  // namespace simjoin::gpu
