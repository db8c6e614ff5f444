#include "cuda/engines/gpu_inlj.hpp"

#include <algorithm>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/device_cancel.cuh"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/pair_batches.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 128;  // two chunks of kThreads rows must fit in shared memory
// About 3 ms of a block's time on an H100 in 2-D (W2: 80 us a step), and no more in more dimensions,
// where fewer blocks share a multiprocessor. A count of steps, not of work, keeps the kernel at 32
// registers (16 blocks a multiprocessor).
constexpr std::uint32_t kStepsPerCancelCheck = 32;

// Copies chunk c into shared memory with row pitch `pitch` (odd, so that threads reading their own
// rows hit different banks); rows past n are zero.
__device__ void load_chunk(float* target, const float* points, std::uint32_t n, unsigned stride, unsigned pitch,
                           std::uint32_t chunk) {
  const std::uint64_t first = std::uint64_t(chunk) * kThreads;
  for (unsigned k = threadIdx.x; k < kThreads * stride; k += blockDim.x) {
    const unsigned row = k / stride, col = k % stride;
    target[row * pitch + col] = first + row < n ? points[(first + row) * stride + col] : 0.0f;
  }
}

__global__ void inlj_kernel(const float* points, std::uint32_t n, unsigned stride, ExactPairTest test,
                            std::uint32_t chunks, std::uint32_t first_block, PairOutput out) {
  extern __shared__ float shared[];
  const unsigned pitch = stride + 1;
  float* own = shared;
  float* other = shared + kThreads * pitch;
  const std::uint32_t b = first_block + blockIdx.x;
  const std::uint64_t i = std::uint64_t(b) * kThreads + threadIdx.x;
  const bool active = i < n;
  load_chunk(own, points, n, stride, pitch, b);
  __syncthreads();
  const float* p = own + threadIdx.x * pitch;
  for (unsigned jj = 0; jj < kThreads; ++jj) {
    const std::uint64_t j = std::uint64_t(b) * kThreads + jj;
    if (active && jj > threadIdx.x && j < n &&
        test(squared_distance(p, own + jj * pitch, int(stride), test.band.reject), std::uint32_t(i), std::uint32_t(j)))
      emit_pair(out, std::uint32_t(i), std::uint32_t(j));
  }
  // A block meets half of all chunks, on 2 M points longer than a cancel may wait: the flag is read
  // every kStepsPerCancelCheck steps.
  for (std::uint32_t step = 1; step <= (chunks - 1) / 2; ++step) {
    const std::uint32_t c = (b + step) % chunks;
    __syncthreads();
    if (step % kStepsPerCancelCheck == 0 && cancelled_at_barrier(out.cancel)) return;
    load_chunk(other, points, n, stride, pitch, c);
    __syncthreads();
    for (unsigned jj = 0; jj < kThreads; ++jj) {
      const std::uint64_t j = std::uint64_t(c) * kThreads + jj;
      // Chunk c may precede chunk b (the rotation wraps): order the pair.
      if (active && j < n &&
          test(squared_distance(p, other + jj * pitch, int(stride), test.band.reject), std::uint32_t(i),
               std::uint32_t(j)))
        emit_pair(out, std::uint32_t(std::min(i, j)), std::uint32_t(std::max(i, j)));
    }
  }
}

}  // namespace

Capabilities GpuInljEngine::capabilities() const {
  Capabilities caps = GpuEngine::capabilities();
  caps.ab_join = false;
  caps.max_dims = kMaxDims;
  return caps;
}

void GpuInljEngine::join(GpuRun& run) const {
  const DeviceInputs device = upload_inputs(run.resources, run.inputs, 4, run.stats(), &run.control);
  const DevicePoints& points = device.a;
  const unsigned stride = unsigned(points.stride);
  std::uint32_t chunks = std::uint32_t((points.n + kThreads - 1) / kThreads);
  if (chunks % 2 == 0) ++chunks;  // an empty chunk makes the count odd
  const std::size_t shared_bytes = 2 * kThreads * (stride + 1) * sizeof(float);
  SIMJOIN_CUDA_CHECK(cudaFuncSetAttribute(inlj_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)));
  const BatchPlan plan{.wave = resident_blocks(reinterpret_cast<const void*>(inlj_kernel), kThreads, shared_bytes),
                       .reads_cancel = true};
  PairBatches(run.resources, run.sink, run.params)
      .run(
          chunks, plan,
          [&](std::uint64_t first, std::uint64_t last, const PairOutput& out, cudaStream_t stream) {
            inlj_kernel<<<unsigned(last - first), kThreads, shared_bytes, stream>>>(
                points.coords.data(), std::uint32_t(points.n), stride, device.exact.test, chunks, std::uint32_t(first),
                out);
          },
          run.control, run.stats());
  run.stats().compared_pairs = candidate_pairs(true, points.n, points.n);
}

}  // namespace simjoin::gpu
