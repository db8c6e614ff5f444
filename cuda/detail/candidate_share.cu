#include "cuda/detail/candidate_share.hpp"

#include <algorithm>
#include <vector>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/launch_size.hpp"

namespace simjoin::gpu {

namespace {
constexpr std::size_t kSampleRows = 64;
constexpr std::size_t kMaxSharedBytes = 96 * 1024;
constexpr unsigned kThreads = 256;
constexpr int kBlocksPerMultiprocessor = 4;

// Each thread takes columns; the sampled rows wait in shared memory.
__global__ void count_within_kernel(const float* rows, const std::uint32_t* row_ids, unsigned sample, const float* cols,
                                    std::uint32_t n_cols, unsigned row_stride, unsigned col_stride, unsigned dims,
                                    float limit, bool self, unsigned long long* within) {
  extern __shared__ float sampled[];
  for (unsigned t = threadIdx.x; t < sample * dims; t += blockDim.x)
    sampled[t] = rows[std::size_t(row_ids[t / dims]) * row_stride + t % dims];
  __syncthreads();
  unsigned long long count = 0;
  for (std::uint64_t j = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n_cols;
       j += std::uint64_t(gridDim.x) * blockDim.x)
    for (unsigned s = 0; s < sample; ++s)
      if (!(self && row_ids[s] == j) &&
          squared_distance(sampled + s * dims, cols + j * col_stride, int(dims), limit) <= limit)
        ++count;
  if (count) atomicAdd(within, count);
}
}  // namespace

double sampled_share_within(const DevicePoints& rows, const DevicePoints& cols, std::size_t dims, float limit,
                            bool self) {
  if (rows.n == 0 || cols.n == 0) return 0;
  const std::size_t fitting = kMaxSharedBytes / (sizeof(float) * std::max<std::size_t>(dims, 1));
  const std::size_t sample = std::min({kSampleRows, rows.n, fitting});
  if (sample == 0) return 1;  // rows too wide to stage: no sample, so no evidence of few candidates
  std::vector<std::uint32_t> ids(sample);
  for (std::size_t s = 0; s < sample; ++s) ids[s] = std::uint32_t(s * rows.n / sample);
  DeviceBuffer<std::uint32_t> device_ids(sample, "sampled rows");
  device_ids.upload(ids.data(), sample);
  DeviceBuffer<unsigned long long> within(1, "sampled pairs within");
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(within.data(), 0, sizeof(unsigned long long)));
  const std::size_t shared = sample * dims * sizeof(float);
  SIMJOIN_CUDA_CHECK(
      cudaFuncSetAttribute(count_within_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  count_within_kernel<<<persistent_blocks(blocks_for(cols.n, kThreads), kBlocksPerMultiprocessor), kThreads, shared>>>(
      rows.coords.data(), device_ids.data(), unsigned(sample), cols.coords.data(), std::uint32_t(cols.n),
      unsigned(rows.stride), unsigned(cols.stride), unsigned(dims), limit, self, within.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  unsigned long long count = 0;
  within.download(&count, 1);
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  const double pairs = double(sample) * double(cols.n) - (self ? double(sample) : 0.0);
  return pairs > 0 ? double(count) / pairs : 0.0;
}

}  // namespace simjoin::gpu
