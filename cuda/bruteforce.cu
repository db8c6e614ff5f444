// gpu-bruteforce: every pair, as fast as plain float32 arithmetic allows. A persistent grid walks
// tiles of 128 x 128 pairs (only the upper triangle of tiles for a self-join); see bruteforce_tile.cuh
// for the register tiling and nested_loop_output.cuh for the warp-aggregated output.
#include "cuda/bruteforce_tile.cuh"
#include "cuda/gpu_engine_base.hpp"
#include "cuda/nested_loop_engines.hpp"
#include "cuda/nested_loop_output.hpp"
#include "cuda/nested_loop_points.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kBlocksPerMultiprocessor = 2;

__global__ void __launch_bounds__(tile::kThreads, kBlocksPerMultiprocessor)
bruteforce_kernel(const float* a, std::uint32_t na, const float* b, std::uint32_t nb, unsigned stride,
                  float eps2, bool self, std::uint64_t first, std::uint64_t last, PairOutput out) {
  __shared__ tile::Shared shared;
  const std::uint64_t tiles_a = (na + tile::kTile - 1) / tile::kTile;
  const std::uint64_t tiles_b = (nb + tile::kTile - 1) / tile::kTile;
  for (std::uint64_t item = first + blockIdx.x; item < last; item += gridDim.x) {
    std::uint32_t ta, tb;
    if (self) {
      tile::triangle_item(item, tiles_a, ta, tb);
    } else {
      ta = std::uint32_t(item / tiles_b);
      tb = std::uint32_t(item % tiles_b);
    }
    const std::uint32_t row0 = ta * tile::kTile, col0 = tb * tile::kTile;
    const unsigned rows = min(tile::kTile, na - row0), cols = min(tile::kTile, nb - col0);
    float acc[tile::kPerThread][tile::kPerThread];
    tile::distances(shared, a + std::size_t(row0) * stride, rows, b + std::size_t(col0) * stride, cols,
                    stride, acc);
    unsigned long long mask = tile::within(acc, eps2);
    if (mask) {
      const bool diagonal = self && ta == tb;
      mask = tile::filter(mask, [&](unsigned r, unsigned c) {
        return r < rows && c < cols && (!diagonal || r < c);
      });
    }
    emit_mask_warp(out, mask, [&](int bit) {
      return Pair{row0 + tile::bit_row(bit), col0 + tile::bit_col(bit)};
    });
  }
}

class BruteForceEngine final : public GpuEngine {
 public:
  std::string name() const override { return "gpu-bruteforce"; }
  std::string description() const override {
    return "GPU brute force over all pairs: register-tiled float32, triangular tile schedule on a "
           "persistent grid";
  }

  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override {
    RunResult result;
    result.stats.device = select_device(params);
    const PointSet& a = *inputs.a;
    const PointSet& b = inputs.queries();
    if (a.empty() || b.empty()) return result;
    const bool self = inputs.self_join();
    control.set_phase("upload");
    DevicePoints da, db_own;
    {
      EventTimer timer;
      da = upload_points(a);
      if (!self) db_own = upload_points(b);
      result.stats.add_phase("upload", timer.seconds());
    }
    const DevicePoints& db = self ? da : db_own;
    const std::uint64_t tiles_a = (a.size() + tile::kTile - 1) / tile::kTile;
    const std::uint64_t tiles_b = (b.size() + tile::kTile - 1) / tile::kTile;
    const std::uint64_t items = self ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b;
    control.set_phase("join");
    BatchedPairOutput output(sink, params, std::uint64_t(tile::kTile) * tile::kTile);
    const float eps2 = squared_eps32(params.eps);
    output.run(items, [&](std::uint64_t first, std::uint64_t last, const PairOutput& out) {
      bruteforce_kernel<<<persistent_blocks(last - first, kBlocksPerMultiprocessor), tile::kThreads>>>(
          da.coords.data(), std::uint32_t(a.size()), db.coords.data(), std::uint32_t(b.size()),
          unsigned(da.stride), eps2, self, first, last, out);
    }, control, result.stats);
    result.stats.compared_pairs = candidate_pairs(self, a.size(), b.size());
    return result;
  }
};
}  // namespace

std::unique_ptr<Engine> make_bruteforce_engine() { return std::make_unique<BruteForceEngine>(); }

}  // namespace simjoin::gpu
