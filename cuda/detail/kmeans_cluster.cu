#include "cuda/detail/kmeans_cluster.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_set>
#include <vector>

#include "core/numeric/numeric_rules.hpp"
#include "core/points/kmeans.hpp"
#include "cuda/detail/difference_tile.cuh"
#include "cuda/detail/kmeans_seeding.hpp"
#include "cuda/detail/launch_size.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 256;
constexpr std::size_t kMaxK = 4096;
constexpr std::size_t kSharedFloats = 48 * 1024 / sizeof(float);

// The lower of two (distance, centroid) candidates: the nearer, or on a tie the lower index.
__device__ inline void keep_nearer(float& distance, std::uint32_t& index, float other_distance,
                                   std::uint32_t other_index) {
  if (other_distance < distance || (other_distance == distance && other_index < index)) {
    distance = other_distance;
    index = other_index;
  }
}

// Nearest centroid of every point (lowest index on ties): a block compares 128 points with every tile of
// 128 centroids (difference_tile.cuh, which sums the squared differences in dimension order as a loop
// over the dimensions would); the 16 threads sharing a point's row then agree on its nearest.
__global__ void __launch_bounds__(tile::kThreads)
    assign_kernel(const float* points, std::uint32_t n, unsigned stride, const float* centroids, std::uint32_t k,
                  std::uint32_t* membership, unsigned long long* changes) {
  __shared__ tile::Shared shared;
  const std::uint32_t row0 = blockIdx.x * tile::kTile;
  const unsigned rows = min(tile::kTile, n - row0);
  float best[tile::kPerThread];
  std::uint32_t nearest[tile::kPerThread];
#pragma unroll
  for (unsigned r = 0; r < tile::kPerThread; ++r) best[r] = INFINITY, nearest[r] = 0;
  for (std::uint32_t c0 = 0; c0 < k; c0 += tile::kTile) {
    const unsigned cols = min(tile::kTile, k - c0);
    float acc[tile::kPerThread][tile::kPerThread];
    tile::distances(shared, points + std::size_t(row0) * stride, rows, centroids + std::size_t(c0) * stride, cols,
                    stride, acc);
#pragma unroll
    for (unsigned c = 0; c < tile::kPerThread; ++c) {
      const unsigned col = tile::local_index(tile::col_group(), c);
      if (col >= cols) continue;
#pragma unroll
      for (unsigned r = 0; r < tile::kPerThread; ++r) keep_nearer(best[r], nearest[r], acc[r][c], c0 + col);
    }
  }
  unsigned long long changed = 0;
#pragma unroll
  for (unsigned r = 0; r < tile::kPerThread; ++r) {
    for (unsigned lane_mask = 8; lane_mask > 0; lane_mask /= 2)  // the 16 lanes of this row group
      keep_nearer(best[r], nearest[r], __shfl_xor_sync(0xffffffffu, best[r], lane_mask),
                  __shfl_xor_sync(0xffffffffu, nearest[r], lane_mask));
    const unsigned row = tile::local_index(tile::row_group(), r);
    if (tile::col_group() == 0 && row < rows) {
      changed += membership[row0 + row] != nearest[r];
      membership[row0 + row] = nearest[r];
    }
  }
  if (changed && changes) atomicAdd(changes, changed);
}

// Sums of the members' coordinates and member counts per partition; per block in shared memory
// when they fit (a thread per point), so that the global atomics do not all land on a few addresses.
// Otherwise a warp takes a point, lanes along its dimensions, so that each atomic instruction of a
// warp lands on consecutive addresses.
__global__ void accumulate_kernel(const float* points, std::uint32_t n, unsigned stride,
                                  const std::uint32_t* membership, std::uint32_t k, bool in_shared, float* sums,
                                  unsigned* counts) {
  extern __shared__ float shared[];
  if (!in_shared) {
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t i = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x / 32) {
      const std::uint32_t c = membership[i];
      for (unsigned t = lane; t < stride; t += 32) atomicAdd(&sums[c * stride + t], points[i * stride + t]);
      if (lane == 0) atomicAdd(&counts[c], 1u);
    }
    return;
  }
  float* local_sums = shared;
  unsigned* local_counts = reinterpret_cast<unsigned*>(shared + k * stride);
  for (unsigned t = threadIdx.x; t < k * stride + k; t += blockDim.x) shared[t] = 0;
  __syncthreads();
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t c = membership[i];
    for (unsigned t = 0; t < stride; ++t) atomicAdd(&local_sums[c * stride + t], points[i * stride + t]);
    atomicAdd(&local_counts[c], 1u);
  }
  __syncthreads();
  for (unsigned t = threadIdx.x; t < k * stride; t += blockDim.x)
    if (local_sums[t] != 0) atomicAdd(&sums[t], local_sums[t]);
  for (unsigned t = threadIdx.x; t < k; t += blockDim.x)
    if (local_counts[t] != 0) atomicAdd(&counts[t], local_counts[t]);
}

// Progress of one Lloyd round, read back by the host once per round.
struct RoundProgress {
  unsigned long long changes;
  double shift;  // summed squared centroid movement
};

// An empty partition keeps its centroid.
__global__ void divide_kernel(float* centroids, const float* sums, const unsigned* counts, std::uint32_t k,
                              unsigned stride, RoundProgress* progress) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= std::uint64_t(k) * stride) return;
  const unsigned count = counts[t / stride];
  if (!count) return;
  const float updated = sums[t] / float(count);
  const double move = double(updated) - double(centroids[t]);
  if (move != 0) atomicAdd(&progress->shift, move * move);
  centroids[t] = updated;
}

void assign(const DevicePoints& points, const DeviceClustering& clustering, std::uint32_t* membership,
            unsigned long long* changes) {
  assign_kernel<<<blocks_for(points.n, tile::kTile), tile::kThreads>>>(
      points.coords.data(), std::uint32_t(points.n), unsigned(points.stride), clustering.centroids.data(),
      std::uint32_t(clustering.k), membership, changes);
  SIMJOIN_CUDA_CHECK_LAUNCH();
}

// Mean over the dimensions of the per-dimension variance of the sample.
double mean_variance(const PointSet32& sample) {
  const std::size_t d = sample.dims(), n = sample.size();
  double total = 0;
  for (std::size_t t = 0; t < d; ++t) {
    double sum = 0, squares = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double x = sample.point(i)[t];
      sum += x;
      squares += x * x;
    }
    const double mean = sum / double(n);
    total += std::max(0.0, squares / double(n) - mean * mean);
  }
  return total / double(d);
}

// k-means++ seeds from a seeded sample of the points, drawn on the GPU; also sets the clustering's
// settling tolerance from the sample's spread.
DeviceBuffer<float> seed_centroids(GpuResources& resources, const PointSet32& points, DeviceClustering& clustering,
                                   std::uint64_t seed) {
  clustering.sample = std::min(points.size(), std::max<std::size_t>(4096, 8 * clustering.k));
  PointSet32 sample(clustering.sample, points.dims());
  const std::vector<std::size_t> chosen = sample_indices(points.size(), clustering.sample, seed);
  for (std::size_t s = 0; s < chosen.size(); ++s) std::copy_n(points.point(chosen[s]), points.dims(), sample.point(s));
  clustering.tolerance = kKMeansSettle * mean_variance(sample);
  return kmeans_plus_plus(upload_points(resources, sample, kKMeansRowMultiple), points.dims(), clustering.k, seed);
}

// Per-partition coordinate sums and member counts of `membership` (one per point), into sums and counts.
void accumulate(const DevicePoints& points, std::size_t k, const std::uint32_t* membership, float* sums,
                unsigned* counts) {
  const std::size_t stride = points.stride;
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(sums, 0, k * stride * sizeof(float)));
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(counts, 0, k * sizeof(unsigned)));
  const bool in_shared = k * stride + k <= kSharedFloats;
  accumulate_kernel<<<std::min<unsigned>(blocks_for(points.n, kThreads), 1024), kThreads,
                      in_shared ? (k * stride + k) * sizeof(float) : 0>>>(points.coords.data(), std::uint32_t(points.n),
                                                                          unsigned(stride), membership,
                                                                          std::uint32_t(k), in_shared, sums, counts);
  SIMJOIN_CUDA_CHECK_LAUNCH();
}

// Rows i n / m of `points`, i < m: a sample spread over the whole set, whatever order it came in.
__global__ void evenly_spaced_kernel(const float* points, std::uint64_t n, unsigned stride, std::uint64_t m,
                                     float* sample) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= m * stride) return;
  const std::uint64_t row = t / stride;
  sample[t] = points[row * n / m * stride + t % stride];
}

}  // namespace

std::vector<std::size_t> sample_indices(std::size_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::unordered_set<std::size_t> chosen;
  chosen.reserve(2 * m);
  std::vector<std::size_t> indices;
  indices.reserve(m);
  for (std::size_t j = n - m; j < n; ++j) {
    std::size_t t = random() % (j + 1);
    if (!chosen.insert(t).second) {
      t = j;
      chosen.insert(j);
    }
    indices.push_back(t);
  }
  std::sort(indices.begin(), indices.end());
  return indices;
}

DevicePoints evenly_spaced(const DevicePoints& points, std::size_t m) {
  DevicePoints sample;
  sample.n = m;
  sample.stride = points.stride;
  sample.coords = DeviceBuffer<float>(m * points.stride, "k-means fitting sample");
  evenly_spaced_kernel<<<blocks_for(m * points.stride, kThreads), kThreads>>>(
      points.coords.data(), points.n, unsigned(points.stride), m, sample.coords.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  return sample;
}

std::size_t formula_k(std::size_t n, std::size_t d) {
  // Fitted to sweeps of k from 8 to 4096 (docs/benchmarks.md, "Automatic k"): the best k grew about
  // as sqrt(n) and in proportion to d up to 128 (W1 8-D 16, W5 32-D 64, 128-D 128 at 200 k and 256-512
  // at 1 M). Above 128 dimensions the Lloyd rounds, k d a point, outgrow what smaller partitions save.
  const double width = double(std::clamp<std::size_t>(d, 8, 128));
  return std::clamp<std::size_t>(std::size_t(std::sqrt(double(n)) * width / 512), 1, kMaxK);
}

std::size_t choose_k(int requested, std::size_t n, std::size_t d, std::vector<std::string>& notes) {
  if (requested > 0 && std::size_t(requested) > kMaxK)
    fail(ErrorKind::Usage,
         "gpu-kmeans supports k up to " + std::to_string(kMaxK) + " (got " + std::to_string(requested) + ")");
  return resolve_k(std::size_t(std::max(requested, 0)), n, formula_k(n, d),
                   "sqrt(n) min(max(d, 8), 128) / 512, at most 4096", notes);
}

DeviceClustering seed_clustering(GpuResources& resources, const PointSet32& points, std::size_t k, std::uint64_t seed) {
  DeviceClustering result;
  result.k = k;
  result.centroids = seed_centroids(resources, points, result, seed);
  return result;
}

void refine_clustering(const DevicePoints& points, DeviceClustering& clustering, RunControl& control, int rounds) {
  const std::size_t k = clustering.k, stride = points.stride, n = points.n;
  if (clustering.membership.size() != n) clustering.membership = DeviceBuffer<std::uint32_t>(n, "k-means membership");
  clustering.fitted = std::min(n, kGpuKMeansFitting.points(k));
  const bool sampled = clustering.fitted < n;
  const DevicePoints sample = sampled ? evenly_spaced(points, clustering.fitted) : DevicePoints{};
  const DevicePoints& fitted = sampled ? sample : points;
  DeviceBuffer<std::uint32_t> sample_membership(sampled ? clustering.fitted : 0, "k-means sample membership");
  std::uint32_t* membership = sampled ? sample_membership.data() : clustering.membership.data();
  DeviceBuffer<float> sums(k * stride, "k-means sums");
  DeviceBuffer<unsigned> counts(k, "k-means counts");
  DeviceBuffer<RoundProgress> progress(1, "k-means progress");
  assign(fitted, clustering, membership, nullptr);
  for (int round = 0; round < rounds; ++round) {
    control.throw_if_cancelled();
    ++clustering.iterations;
    SIMJOIN_CUDA_CHECK(cudaMemsetAsync(progress.data(), 0, sizeof(RoundProgress)));
    accumulate(fitted, k, membership, sums.data(), counts.data());
    divide_kernel<<<blocks_for(k * stride, kThreads), kThreads>>>(
        clustering.centroids.data(), sums.data(), counts.data(), std::uint32_t(k), unsigned(stride), progress.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    assign(fitted, clustering, membership, &progress.data()->changes);
    RoundProgress host{};
    progress.download(&host, 1);
    SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
    if (host.changes * kKMeansSettledChanges <= fitted.n || host.shift <= clustering.tolerance) break;
  }
  if (sampled) assign(points, clustering, clustering.membership.data(), nullptr);
}

void assign_nearest(const DevicePoints& points, const DeviceClustering& clustering, std::uint32_t* membership) {
  assign(points, clustering, membership, nullptr);
}

double centroid_displacement(const DevicePoints& points, const DeviceClustering& clustering) {
  const std::size_t k = clustering.k, stride = points.stride;
  DeviceBuffer<float> sums(k * stride, "k-means sums");
  DeviceBuffer<unsigned> counts(k, "k-means counts");
  accumulate(points, k, clustering.membership.data(), sums.data(), counts.data());
  std::vector<float> host_sums(k * stride), centroids(k * stride);
  std::vector<unsigned> host_counts(k);
  sums.download(host_sums.data(), host_sums.size());
  counts.download(host_counts.data(), k);
  clustering.centroids.download(centroids.data(), centroids.size());
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  double total = 0;
  for (std::size_t c = 0; c < k; ++c) {
    if (!host_counts[c]) continue;
    double squared = 0;
    for (std::size_t t = 0; t < stride; ++t) {
      const double move = double(host_sums[c * stride + t]) / host_counts[c] - centroids[c * stride + t];
      squared += move * move;
    }
    total += std::sqrt(squared);
  }
  return total;
}

std::vector<double> download_centroids(const DeviceClustering& clustering, std::size_t stride, std::size_t dims) {
  std::vector<float> padded(clustering.k * stride);
  std::vector<double> centroids(clustering.k * dims);
  clustering.centroids.download(padded.data(), padded.size());
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  for (std::size_t c = 0; c < clustering.k; ++c)
    std::copy_n(padded.data() + c * stride, dims, centroids.data() + c * dims);
  return centroids;
}

}  // namespace simjoin::gpu
