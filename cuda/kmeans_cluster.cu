#include "cuda/kmeans_cluster.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "core/kmeans.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 256;
constexpr int kMaxIterations = 25;
constexpr std::size_t kSharedFloats = 48 * 1024 / sizeof(float);

__global__ void assign_kernel(const float* points, std::uint32_t n, unsigned stride, const float* centroids,
                              std::uint32_t k, bool stage_centroids, std::uint32_t* membership,
                              unsigned long long* changes) {
  extern __shared__ float shared[];
  const float* cents = centroids;
  if (stage_centroids) {
    for (unsigned t = threadIdx.x; t < k * stride; t += blockDim.x) shared[t] = centroids[t];
    __syncthreads();
    cents = shared;
  }
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool changed = false;
  if (i < n) {
    const float* p = points + i * stride;
    std::uint32_t best = 0;
    float best_distance = INFINITY;
    for (std::uint32_t c = 0; c < k; ++c) {
      float sum = 0;
      for (unsigned t = 0; t < stride; ++t) {
        const float diff = p[t] - cents[c * stride + t];
        sum = fmaf(diff, diff, sum);
      }
      if (sum < best_distance) {
        best_distance = sum;
        best = c;
      }
    }
    changed = membership[i] != best;
    membership[i] = best;
  }
  const unsigned ballot = __ballot_sync(0xffffffffu, changed);
  if ((threadIdx.x & 31u) == 0 && ballot && changes) atomicAdd(changes, (unsigned long long)__popc(ballot));
}

// Sums of the members' coordinates and member counts per partition; per block in shared memory
// when they fit, so that the global atomics do not all land on a few addresses.
__global__ void accumulate_kernel(const float* points, std::uint32_t n, unsigned stride,
                                  const std::uint32_t* membership, std::uint32_t k, bool in_shared,
                                  float* sums, unsigned* counts) {
  extern __shared__ float shared[];
  float* local_sums = in_shared ? shared : sums;
  unsigned* local_counts = in_shared ? reinterpret_cast<unsigned*>(shared + k * stride) : counts;
  if (in_shared) {
    for (unsigned t = threadIdx.x; t < k * stride + k; t += blockDim.x) shared[t] = 0;
    __syncthreads();
  }
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t c = membership[i];
    for (unsigned t = 0; t < stride; ++t) atomicAdd(&local_sums[c * stride + t], points[i * stride + t]);
    atomicAdd(&local_counts[c], 1u);
  }
  if (in_shared) {
    __syncthreads();
    for (unsigned t = threadIdx.x; t < k * stride; t += blockDim.x)
      if (local_sums[t] != 0) atomicAdd(&sums[t], local_sums[t]);
    for (unsigned t = threadIdx.x; t < k; t += blockDim.x)
      if (local_counts[t] != 0) atomicAdd(&counts[t], local_counts[t]);
  }
}

// An empty partition keeps its centroid.
__global__ void divide_kernel(float* centroids, const float* sums, const unsigned* counts, std::uint32_t k,
                              unsigned stride) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= std::uint64_t(k) * stride) return;
  const unsigned count = counts[t / stride];
  if (count) centroids[t] = sums[t] / float(count);
}

unsigned blocks_for(std::uint64_t items) { return unsigned((items + kThreads - 1) / kThreads); }

std::size_t staged_bytes(const DeviceClustering& clustering, std::size_t stride) {
  const std::size_t floats = clustering.k * stride;
  return floats <= kSharedFloats ? floats * sizeof(float) : 0;
}

void assign(const DevicePoints& points, const DeviceClustering& clustering, std::uint32_t* membership,
            unsigned long long* changes) {
  const std::size_t shared = staged_bytes(clustering, points.stride);
  assign_kernel<<<blocks_for(points.n), kThreads, shared>>>(
      points.coords.data(), std::uint32_t(points.n), unsigned(points.stride), clustering.centroids.data(),
      std::uint32_t(clustering.k), shared != 0, membership, changes);
  SIMJOIN_CUDA_CHECK_LAUNCH();
}

// k-means++ seeds from a seeded sample of the points, by the host k-means.
std::vector<float> seed_centroids(const PointSet& points, std::size_t k, std::uint64_t seed,
                                  std::size_t& sample_size) {
  sample_size = std::min(points.size(), std::max<std::size_t>(4096, 8 * k));
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 random(seed);
  for (std::size_t s = 0; s < sample_size; ++s)
    std::swap(order[s], order[s + random() % (points.size() - s)]);
  PointSet sample(sample_size, points.dims());
  for (std::size_t s = 0; s < sample_size; ++s)
    std::copy_n(points.point(order[s]), points.dims(), sample.point(s));
  KMeansParams params;
  params.k = k;
  params.seed = seed;
  params.max_iterations = 0;  // seeds only: the Lloyd rounds run on the GPU over all points
  return kmeans(sample, params).centroids;
}
}  // namespace

DeviceClustering cluster_points(const PointSet& points, const DevicePoints& device_points, std::size_t k,
                                std::uint64_t seed, RunControl& control) {
  DeviceClustering result;
  result.k = k;
  const std::size_t d = points.dims(), stride = device_points.stride, n = points.size();
  const std::vector<float> seeds = seed_centroids(points, k, seed, result.sample);
  std::vector<float> padded(k * stride, 0.0f);
  for (std::size_t c = 0; c < k; ++c) std::copy_n(seeds.data() + c * d, d, padded.data() + c * stride);
  result.centroids = DeviceBuffer<float>(k * stride, "k-means centroids");
  result.centroids.upload(padded.data(), padded.size());
  result.membership = DeviceBuffer<std::uint32_t>(n, "k-means membership");
  SIMJOIN_CUDA_CHECK(cudaMemset(result.membership.data(), 0xFF, n * sizeof(std::uint32_t)));
  DeviceBuffer<float> sums(k * stride, "k-means sums");
  DeviceBuffer<unsigned> counts(k, "k-means counts");
  DeviceBuffer<unsigned long long> changes(1, "k-means change counter");
  const bool sums_in_shared = k * stride + k <= kSharedFloats;
  const unsigned accumulate_blocks = std::min<unsigned>(blocks_for(n), 1024);

  assign(device_points, result, result.membership.data(), nullptr);
  while (result.iterations < kMaxIterations) {
    control.throw_if_cancelled();
    ++result.iterations;
    SIMJOIN_CUDA_CHECK(cudaMemset(sums.data(), 0, sums.bytes()));
    SIMJOIN_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.bytes()));
    accumulate_kernel<<<accumulate_blocks, kThreads, sums_in_shared ? (k * stride + k) * sizeof(float) : 0>>>(
        device_points.coords.data(), std::uint32_t(n), unsigned(stride), result.membership.data(),
        std::uint32_t(k), sums_in_shared, sums.data(), counts.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    divide_kernel<<<blocks_for(k * stride), kThreads>>>(result.centroids.data(), sums.data(), counts.data(),
                                                        std::uint32_t(k), unsigned(stride));
    SIMJOIN_CUDA_CHECK_LAUNCH();
    SIMJOIN_CUDA_CHECK(cudaMemset(changes.data(), 0, sizeof(unsigned long long)));
    assign(device_points, result, result.membership.data(), changes.data());
    unsigned long long changed = 0;
    changes.download(&changed, 1);
    SIMJOIN_CUDA_CHECK(cudaDeviceSynchronize());
    if (changed * 1000 <= n) break;
  }
  return result;
}

void assign_nearest(const DevicePoints& points, const DeviceClustering& clustering,
                    std::uint32_t* membership) {
  assign(points, clustering, membership, nullptr);
}

}  // namespace simjoin::gpu
