// gpu-nlj: Boehm et al. 2009, section 4: one thread per query point; the points are staged through
// shared memory tile by tile; for a self-join the inner loop starts after the thread's own index.
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
constexpr unsigned kThreads = 256;
constexpr std::size_t kSharedBytes = 48 * 1024;

// Block b handles query points b*kThreads ...; launched over blocks [first_block, ...).
__global__ void nlj_kernel(const float* a, std::uint32_t na, const float* b, std::uint32_t nb,
                           unsigned stride, ExactPairTest test, bool self, std::uint32_t first_block,
                           unsigned tile_points, PairOutput out) {
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
      const bool hit = active && (!self || j > i) &&
                       test(squared_distance(p, tile + jj * stride, int(stride), test.band.reject), std::uint32_t(i),
                            std::uint32_t(j));
      emit_warp(out, hit, std::uint32_t(i), std::uint32_t(j));
    }
  }
}

class NljEngine final : public GpuEngine {
 public:
  std::string name() const override { return "gpu-nlj"; }
  std::string description() const override {
    return "GPU nested loop (Boehm 2009): a thread per point, points staged through shared memory";
  }

  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override {
    RunResult result;
    result.stats.device = select_device(params);
    const PointSet32& a = *inputs.a;
    const PointSet32& b = inputs.queries();
    if (a.empty() || b.empty()) return result;
    control.set_phase("upload");
    DevicePoints da, db_own;
    DeviceExact exact;
    {
      EventTimer timer;
      da = upload_points(a);
      if (!inputs.self_join()) db_own = upload_points(b);
      exact = upload_exact(inputs);
      result.stats.add_phase("upload", timer.seconds());
    }
    const DevicePoints& db = inputs.self_join() ? da : db_own;
    const unsigned stride = unsigned(da.stride);
    const unsigned tile_points =
        unsigned(std::min<std::size_t>(kThreads, kSharedBytes / (sizeof(float) * stride)));
    const std::uint64_t blocks = (a.size() + kThreads - 1) / kThreads;
    control.set_phase("join");
    const std::size_t shared_bytes = tile_points * stride * sizeof(float);
    BatchedPairOutput output(sink, params,
                             resident_blocks(reinterpret_cast<const void*>(nlj_kernel), kThreads, shared_bytes));
    const bool self = inputs.self_join();
    output.run(blocks, [&](std::uint64_t first, std::uint64_t last, const PairOutput& out) {
      nlj_kernel<<<unsigned(last - first), kThreads, shared_bytes>>>(
          da.coords.data(), std::uint32_t(a.size()), db.coords.data(), std::uint32_t(b.size()), stride,
          exact.test, self, std::uint32_t(first), tile_points, out);
    }, control, result.stats);
    result.stats.compared_pairs = candidate_pairs(self, a.size(), b.size());
    return result;
  }
};
}  // namespace

std::unique_ptr<Engine> make_nlj_engine() { return std::make_unique<NljEngine>(); }

}  // namespace simjoin::gpu
