#include "cuda/engines/gpu_nlj.hpp"

#include <algorithm>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/device_cancel.cuh"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/pair_batches.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 256;
constexpr std::size_t kSharedBytes = 48 * 1024;

// Block b handles query points b*kThreads ...; launched over blocks [first_block, last_block).
__global__ void nlj_kernel(const float* a, std::uint32_t na, const float* b, std::uint32_t nb, unsigned stride,
                           ExactPairTest test, bool self, std::uint32_t first_block, unsigned tile_points,
                           PairOutput out) {
  extern __shared__ float tile[];
  const std::uint64_t block_start = std::uint64_t(first_block + blockIdx.x) * blockDim.x;
  const std::uint64_t i = block_start + threadIdx.x;
  const bool active = i < na;
  const float* p = a + (active ? i : 0) * stride;
  // A block compares its points with all n: on 2 M points longer than a cancel may wait.
  BlockCancelCheck cancel(out.cancel);
  // For a self-join nothing before the block's first point + 1 can pair with any of its threads.
  for (std::uint64_t t0 = self ? block_start + 1 : 0; t0 < nb; t0 += tile_points) {
    const unsigned count = unsigned(std::min<std::uint64_t>(tile_points, nb - t0));
    __syncthreads();
    if (cancel.stop(count * stride)) return;
    for (unsigned k = threadIdx.x; k < count * stride; k += blockDim.x) tile[k] = b[t0 * stride + k];
    __syncthreads();
    for (unsigned jj = 0; jj < count; ++jj) {
      const std::uint64_t j = t0 + jj;
      if (active && (!self || j > i) &&
          test(squared_distance(p, tile + jj * stride, int(stride), test.band.reject), std::uint32_t(i),
               std::uint32_t(j)))
        emit_pair(out, std::uint32_t(i), std::uint32_t(j));
    }
  }
}
}  // namespace

void GpuNljEngine::join(GpuRun& run) const {
  const DeviceInputs device = upload_inputs(run.resources, run.inputs, 4, run.stats(), &run.control);
  const DevicePoints& a = device.a;
  const DevicePoints& b = device.queries();
  const unsigned stride = unsigned(a.stride);
  const unsigned tile_points = unsigned(std::min<std::size_t>(kThreads, kSharedBytes / (sizeof(float) * stride)));
  const std::size_t shared_bytes = tile_points * stride * sizeof(float);
  const bool self = run.self();
  const BatchPlan plan{.wave = resident_blocks(reinterpret_cast<const void*>(nlj_kernel), kThreads, shared_bytes),
                       .reads_cancel = true};
  PairBatches(run.resources, run.sink, run.params)
      .run((a.n + kThreads - 1) / kThreads, plan,
           [&](std::uint64_t first, std::uint64_t last, const PairOutput& out, cudaStream_t stream) {
             nlj_kernel<<<unsigned(last - first), kThreads, shared_bytes, stream>>>(
                 a.coords.data(), std::uint32_t(a.n), b.coords.data(), std::uint32_t(b.n), stride, device.exact.test,
                 self, std::uint32_t(first), tile_points, out);
           },
           run.control, run.stats());
  run.stats().compared_pairs = candidate_pairs(self, a.n, b.n);
}

}  // namespace simjoin::gpu
