// gpu-inlj: the improved nested loop of Korkmaz 2012, section 4.2 (Algorithm 5). The points are
// padded to an odd number NB of chunks of kThreads points. Block b keeps its chunk in the first half of
// shared memory, compares it with itself (j > i), then loads chunk (b + s) mod NB for s = 1 ... (NB-1)/2
// into the second half and compares all against all: with NB odd every pair of chunks meets once.
// (The thesis prints the chunk index of step s with a typo; (b + s) mod NB is the intended one.)
#include <algorithm>

#include "cuda/device_cancel.cuh"
#include "cuda/exact_device.hpp"
#include "cuda/gpu_engine_base.hpp"
#include "cuda/index_device.cuh"
#include "cuda/nested_loop_engines.hpp"
#include "cuda/nested_loop_output.hpp"
#include "cuda/nested_loop_points.hpp"

namespace simjoin::gpu {

namespace {
constexpr unsigned kThreads = 128;
constexpr std::size_t kMaxDims = 200;  // two chunks of kThreads rows must fit in shared memory
// About 3 ms of a block's time on an H100 in 2-D (W2: 80 us a step), and no more in more dimensions,
// where fewer blocks share a multiprocessor. A count of steps, not of work, keeps the kernel at 32
// registers (16 blocks a multiprocessor).
constexpr std::uint32_t kStepsPerCancelCheck = 32;

// Copies chunk c into shared memory with row pitch `pitch` (odd, so that threads reading their own
// rows hit different banks); rows past n are zero.
__device__ void load_chunk(float* target, const float* points, std::uint32_t n, unsigned stride,
                           unsigned pitch, std::uint32_t chunk) {
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
    const bool hit = active && jj > threadIdx.x && j < n &&
                     test(squared_distance(p, own + jj * pitch, int(stride), test.band.reject), std::uint32_t(i),
                          std::uint32_t(j));
    emit_warp(out, hit, std::uint32_t(i), std::uint32_t(j));
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
      const bool hit = active && j < n &&
                       test(squared_distance(p, other + jj * pitch, int(stride), test.band.reject), std::uint32_t(i),
                            std::uint32_t(j));
      // Chunk c may precede chunk b (the rotation wraps): order the pair.
      emit_warp(out, hit, std::uint32_t(std::min(i, j)), std::uint32_t(std::max(i, j)));
    }
  }
}

class InljEngine final : public GpuEngine {
 public:
  std::string name() const override { return "gpu-inlj"; }
  std::string description() const override {
    return "GPU improved nested loop (Korkmaz 2012): an odd number of blocks rotating chunks "
           "through shared memory, each pair of blocks met once";
  }
  Capabilities capabilities() const override {
    Capabilities caps = GpuEngine::capabilities();
    caps.ab_join = false;
    caps.max_dims = kMaxDims;
    return caps;
  }

  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override {
    RunResult result;
    result.stats.device = select_device(params);
    const PointSet32& a = *inputs.a;
    if (a.empty()) return result;
    control.set_phase("upload");
    DevicePoints points;
    DeviceExact exact;
    {
      EventTimer timer;
      points = upload_points(a);
      exact = upload_exact(inputs);
      result.stats.add_phase("upload", timer.seconds());
    }
    const unsigned stride = unsigned(points.stride);
    std::uint32_t chunks = std::uint32_t((a.size() + kThreads - 1) / kThreads);
    if (chunks % 2 == 0) ++chunks;  // an empty chunk makes the count odd
    const std::size_t shared_bytes = 2 * kThreads * (stride + 1) * sizeof(float);
    SIMJOIN_CUDA_CHECK(cudaFuncSetAttribute(inlj_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            int(shared_bytes)));
    control.set_phase("join");
    BatchedPairOutput output(sink, params,
                             resident_blocks(reinterpret_cast<const void*>(inlj_kernel), kThreads, shared_bytes));
    output.run(chunks, [&](std::uint64_t first, std::uint64_t last, const PairOutput& out) {
      inlj_kernel<<<unsigned(last - first), kThreads, shared_bytes>>>(
          points.coords.data(), std::uint32_t(a.size()), stride, exact.test, chunks, std::uint32_t(first), out);
    }, control, result.stats);
    result.stats.compared_pairs = candidate_pairs(true, a.size(), a.size());
    return result;
  }
};
}  // namespace

std::unique_ptr<Engine> make_inlj_engine() { return std::make_unique<InljEngine>(); }

}  // namespace simjoin::gpu
