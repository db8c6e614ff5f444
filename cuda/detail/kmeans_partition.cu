#include "cuda/detail/kmeans_partition.hpp"

#include <cub/cub.cuh>

#include "cuda/detail/launch_size.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 256;
// Relative margins of the band test: eps is widened by one part in a million, and the comparison by
// 1e-12 of the squared distances, far above float64 rounding of either side.
constexpr double kEpsMargin = 1e-6;
constexpr double kRoundingMargin = 1e-12;

__global__ void gaps_kernel(const float* centroids, std::uint32_t k, unsigned stride, double* gaps) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= std::uint64_t(k) * k) return;
  const float* ci = centroids + (t / k) * stride;
  const float* cj = centroids + (t % k) * stride;
  double sum = 0;
  for (unsigned d = 0; d < stride; ++d) {
    const double diff = double(ci[d]) - double(cj[d]);
    sum += diff * diff;
  }
  gaps[t] = sqrt(sum);
}

// Walks the partitions of point i in ascending order: its own and those whose band it lies in.
// With `write` false it only counts them.
__global__ void list_kernel(const float* points, std::uint32_t n, unsigned stride, const std::uint32_t* membership,
                            const float* centroids, const double* gaps, std::uint32_t k, double eps,
                            bool replicate, unsigned long long* counts, const unsigned long long* list_begin,
                            std::uint32_t* lists) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* p = points + i * stride;
  const std::uint32_t own = membership[i];
  const auto squared = [&](std::uint32_t c) {
    double sum = 0;
    for (unsigned d = 0; d < stride; ++d) {
      const double diff = double(p[d]) - double(centroids[c * stride + d]);
      sum += diff * diff;
    }
    return sum;
  };
  const double to_own = squared(own);
  unsigned long long count = 0;
  for (std::uint32_t c = 0; c < k; ++c) {
    bool member = c == own;
    if (!member && replicate) {
      const double to_c = squared(c);
      member = to_c - to_own <= 2 * eps * gaps[own * k + c] + kRoundingMargin * (to_c + to_own);
    }
    if (!member) continue;
    if (lists) lists[list_begin[i] + count] = c;
    ++count;
  }
  if (counts) counts[i] = count;
}

__global__ void scatter_kernel(std::uint32_t n, const unsigned long long* list_begin, const std::uint32_t* lists,
                               unsigned long long* cursor, std::uint32_t* grouped_ids) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (unsigned long long e = list_begin[i]; e < list_begin[i + 1]; ++e)
    grouped_ids[atomicAdd(&cursor[lists[e]], 1ull)] = std::uint32_t(i);
}

__global__ void gather_kernel(const float* points, unsigned stride, const std::uint32_t* grouped_ids,
                              std::uint64_t entries, float* grouped_coords) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned vectors = stride / 4;
  if (t >= entries * vectors) return;
  const std::uint64_t e = t / vectors, v = t % vectors;
  reinterpret_cast<float4*>(grouped_coords + e * stride)[v] =
      reinterpret_cast<const float4*>(points + std::uint64_t(grouped_ids[e]) * stride)[v];
}

__global__ void replicas_kernel(std::uint32_t n, const unsigned long long* list_begin, const std::uint32_t* lists,
                                const std::uint32_t* membership, std::uint32_t* replica_point,
                                std::uint32_t* replica_partition) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long out = list_begin[i] - i;
  for (unsigned long long e = list_begin[i]; e < list_begin[i + 1]; ++e) {
    if (lists[e] == membership[i]) continue;
    replica_point[out] = std::uint32_t(i);
    replica_partition[out] = lists[e];
    ++out;
  }
}

// Exclusive prefix sum of `count` values with CUB (in and out may not alias).
void exclusive_sum(const unsigned long long* in, unsigned long long* out, std::uint64_t count) {
  std::size_t bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, std::int64_t(count)));
  DeviceBuffer<char> temp(bytes, "scan workspace");
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, in, out, std::int64_t(count)));
}
}  // namespace

DeviceBuffer<double> centroid_gaps(const DeviceClustering& clustering, std::size_t stride) {
  const std::uint64_t k = clustering.k;
  DeviceBuffer<double> gaps(k * k, "centroid distances");
  gaps_kernel<<<blocks_for(k * k, kThreads), kThreads>>>(clustering.centroids.data(), std::uint32_t(k), unsigned(stride),
                                              gaps.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  return gaps;
}

PartitionedPoints partition_points(const DevicePoints& points, const std::uint32_t* membership,
                                   const DeviceClustering& clustering, const double* gaps, double eps,
                                   bool replicate) {
  PartitionedPoints result;
  const std::uint64_t n = points.n, k = clustering.k;
  const unsigned stride = unsigned(points.stride);
  const double band = eps * (1 + kEpsMargin);
  {
    EventTimer timer;
    DeviceBuffer<unsigned long long> counts(n + 1, "membership list sizes");
    SIMJOIN_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.bytes()));
    list_kernel<<<blocks_for(n, kThreads), kThreads>>>(points.coords.data(), std::uint32_t(n), stride, membership,
                                             clustering.centroids.data(), gaps, std::uint32_t(k), band,
                                             replicate, counts.data(), nullptr, nullptr);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    result.list_begin = DeviceBuffer<unsigned long long>(n + 1, "membership list offsets");
    exclusive_sum(counts.data(), result.list_begin.data(), n + 1);
    SIMJOIN_CUDA_CHECK(cudaMemcpy(&result.entries, result.list_begin.data() + n, sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost));
    result.lists = DeviceBuffer<std::uint32_t>(result.entries, "membership lists");
    list_kernel<<<blocks_for(n, kThreads), kThreads>>>(points.coords.data(), std::uint32_t(n), stride, membership,
                                             clustering.centroids.data(), gaps, std::uint32_t(k), band,
                                             replicate, nullptr, result.list_begin.data(), result.lists.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    result.replication_seconds = timer.seconds();
  }
  {
    EventTimer timer;
    DeviceBuffer<unsigned long long> sizes(k + 1, "partition sizes");
    SIMJOIN_CUDA_CHECK(cudaMemset(sizes.data(), 0, sizes.bytes()));
    std::size_t bytes = 0;
    const auto histogram = [&](void* temp) {
      SIMJOIN_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
          temp, bytes, result.lists.data(), sizes.data(), int(k + 1), std::uint32_t(0), std::uint32_t(k),
          std::int64_t(result.entries)));
    };
    histogram(nullptr);
    DeviceBuffer<char> temp(bytes, "histogram workspace");
    histogram(temp.data());
    result.part_begin = DeviceBuffer<unsigned long long>(k + 1, "partition offsets");
    exclusive_sum(sizes.data(), result.part_begin.data(), k + 1);
    DeviceBuffer<unsigned long long> cursor(k + 1, "partition cursors");
    SIMJOIN_CUDA_CHECK(cudaMemcpy(cursor.data(), result.part_begin.data(), cursor.bytes(), cudaMemcpyDeviceToDevice));
    result.grouped_ids = DeviceBuffer<std::uint32_t>(result.entries, "grouped point ids");
    scatter_kernel<<<blocks_for(n, kThreads), kThreads>>>(std::uint32_t(n), result.list_begin.data(), result.lists.data(),
                                                cursor.data(), result.grouped_ids.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    result.grouped_coords = DeviceBuffer<float>(result.entries * stride, "grouped coordinates");
    gather_kernel<<<blocks_for(result.entries * (stride / 4), kThreads), kThreads>>>(
        points.coords.data(), stride, result.grouped_ids.data(), result.entries, result.grouped_coords.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    result.part_begin_host.resize(k + 1);
    result.part_begin.download(result.part_begin_host.data(), k + 1);
    result.sort_seconds = timer.seconds();
  }
  return result;
}

PartitionedPoints copy_for_join(const PartitionedPoints& parts, int owner) {
  PartitionedPoints copy;
  copy.entries = parts.entries;
  copy.part_begin_host = parts.part_begin_host;
  copy.list_begin = parts.list_begin.copy_from(owner, "partition lists (copy)");
  copy.lists = parts.lists.copy_from(owner, "partition lists (copy)");
  copy.part_begin = parts.part_begin.copy_from(owner, "partition offsets (copy)");
  copy.grouped_ids = parts.grouped_ids.copy_from(owner, "grouped points (copy)");
  copy.grouped_coords = parts.grouped_coords.copy_from(owner, "grouped points (copy)");
  return copy;
}

void download_replicas(const PartitionedPoints& parts, const std::uint32_t* membership, std::uint64_t n,
                       std::vector<std::uint32_t>& replica_point, std::vector<std::uint32_t>& replica_partition) {
  const std::uint64_t copies = parts.entries - n;
  replica_point.resize(copies);
  replica_partition.resize(copies);
  if (copies == 0) return;
  DeviceBuffer<std::uint32_t> points(copies, "replica points"), partitions(copies, "replica partitions");
  replicas_kernel<<<blocks_for(n, kThreads), kThreads>>>(std::uint32_t(n), parts.list_begin.data(), parts.lists.data(),
                                               membership, points.data(), partitions.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  points.download(replica_point.data(), copies);
  partitions.download(replica_partition.data(), copies);
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
}

}  // namespace simjoin::gpu
