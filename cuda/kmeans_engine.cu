// gpu-kmeans and gpu-kmeans-approx: KMEANS-JOIN (Korkmaz 2012, section 4.3) on the GPU. k-means
// partitions, replication into the bisector bands (skipped by the approximate variant), grouping by
// partition, then all partitions joined in one launch of equal-sized (partition, tile, tile) work
// items. A pair held by several partitions is reported only by the highest partition both points
// belong to.
#include <algorithm>
#include <cmath>

#include "cuda/bruteforce_tile.cuh"
#include "cuda/gpu_engine_base.hpp"
#include "cuda/kmeans_partition.hpp"
#include "cuda/nested_loop_engines.hpp"
#include "cuda/nested_loop_output.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kBlocksPerMultiprocessor = 2;
constexpr std::size_t kMaxK = 4096;

struct GroupedView {
  const float* coords;
  const std::uint32_t* ids;
  const unsigned long long* part_begin;
  const unsigned long long* list_begin;
  const std::uint32_t* lists;
};

GroupedView view(const PartitionedPoints& p) {
  return {p.grouped_coords.data(), p.grouped_ids.data(), p.part_begin.data(), p.list_begin.data(),
          p.lists.data()};
}

// The highest partition in both ascending lists.
__device__ std::uint32_t highest_common(const std::uint32_t* a, long long na, const std::uint32_t* b,
                                        long long nb) {
  long long x = na - 1, y = nb - 1;
  while (x >= 0 && y >= 0) {
    if (a[x] == b[y]) return a[x];
    if (a[x] > b[y]) --x; else --y;
  }
  return 0xFFFFFFFFu;
}

__global__ void __launch_bounds__(tile::kThreads, kBlocksPerMultiprocessor)
kmeans_join_kernel(GroupedView a, GroupedView b, const unsigned long long* item_begin, std::uint32_t k,
                   unsigned stride, float eps2, bool self, std::uint64_t first, std::uint64_t last,
                   PairOutput out) {
  __shared__ tile::Shared shared;
  for (std::uint64_t item = first + blockIdx.x; item < last; item += gridDim.x) {
    // The partition whose items contain `item`: the last c with item_begin[c] <= item.
    std::uint32_t low = 0, high = k - 1;
    while (low < high) {
      const std::uint32_t mid = (low + high + 1) / 2;
      if (item_begin[mid] <= item) low = mid; else high = mid - 1;
    }
    const std::uint32_t c = low;
    const std::uint64_t local = item - item_begin[c];
    const std::uint64_t size_a = a.part_begin[c + 1] - a.part_begin[c];
    const std::uint64_t size_b = b.part_begin[c + 1] - b.part_begin[c];
    const std::uint64_t tiles_b = (size_b + tile::kTile - 1) / tile::kTile;
    std::uint32_t ta, tb;
    if (self) {
      tile::triangle_item(local, tiles_b, ta, tb);
    } else {
      ta = std::uint32_t(local / tiles_b);
      tb = std::uint32_t(local % tiles_b);
    }
    const std::uint64_t row0 = a.part_begin[c] + std::uint64_t(ta) * tile::kTile;
    const std::uint64_t col0 = b.part_begin[c] + std::uint64_t(tb) * tile::kTile;
    const std::uint64_t rest_a = size_a - std::uint64_t(ta) * tile::kTile;
    const std::uint64_t rest_b = size_b - std::uint64_t(tb) * tile::kTile;
    const unsigned rows = unsigned(rest_a < tile::kTile ? rest_a : tile::kTile);
    const unsigned cols = unsigned(rest_b < tile::kTile ? rest_b : tile::kTile);
    float acc[tile::kPerThread][tile::kPerThread];
    tile::distances(shared, a.coords + row0 * stride, rows, b.coords + col0 * stride, cols, stride, acc);
    unsigned long long mask = tile::within(acc, eps2);
    if (mask) {
      const bool diagonal = self && ta == tb;
      mask = tile::filter(mask, [&](unsigned r, unsigned col) {
        if (r >= rows || col >= cols || (diagonal && r >= col)) return false;
        const std::uint32_t p = a.ids[row0 + r], q = b.ids[col0 + col];
        return highest_common(a.lists + a.list_begin[p], a.list_begin[p + 1] - a.list_begin[p],
                              b.lists + b.list_begin[q], b.list_begin[q + 1] - b.list_begin[q]) == c;
      });
    }
    emit_mask_warp(out, mask, [&](int bit) {
      const std::uint32_t p = a.ids[row0 + tile::bit_row(bit)], q = b.ids[col0 + tile::bit_col(bit)];
      return self ? Pair{min(p, q), max(p, q)} : Pair{p, q};
    });
  }
}

// Same rule as the CPU KMEANS-JOIN: k = 0 picks sqrt(n / 64) within [1, 256]; k > n becomes n.
std::size_t choose_k(int requested, std::size_t n, std::vector<std::string>& notes) {
  if (requested > 0 && std::size_t(requested) > kMaxK)
    fail(ErrorKind::Usage, "gpu-kmeans supports k up to " + std::to_string(kMaxK) + " (got " +
                               std::to_string(requested) + ")");
  if (requested == 0) {
    const std::size_t k = std::clamp<std::size_t>(std::size_t(std::sqrt(double(n) / 64.0)), 1, 256);
    notes.push_back("k chosen from n: " + std::to_string(k));
    return std::min(k, n);
  }
  if (std::size_t(requested) > n) {
    notes.push_back("k = " + std::to_string(requested) + " exceeds n; clamped to " + std::to_string(n));
    return n;
  }
  return std::size_t(requested);
}

PartitionStructure describe(const PointSet& a, const DeviceClustering& clustering, const PartitionedPoints& parts,
                            std::size_t stride) {
  PartitionStructure structure;
  structure.k = clustering.k;
  structure.iterations = clustering.iterations;
  const std::size_t d = a.dims(), n = a.size();
  std::vector<float> padded(clustering.k * stride);
  clustering.centroids.download(padded.data(), padded.size());
  structure.membership.resize(n);
  clustering.membership.download(structure.membership.data(), n);
  std::vector<unsigned long long> begin(n + 1);
  parts.list_begin.download(begin.data(), n + 1);
  std::vector<std::uint32_t> lists(parts.entries);
  parts.lists.download(lists.data(), lists.size());
  SIMJOIN_CUDA_CHECK(cudaDeviceSynchronize());
  structure.centroids.resize(clustering.k * d);
  for (std::size_t c = 0; c < clustering.k; ++c)
    std::copy_n(padded.data() + c * stride, d, structure.centroids.data() + c * d);
  for (std::uint32_t p = 0; p < n; ++p)
    for (unsigned long long e = begin[p]; e < begin[p + 1]; ++e)
      if (lists[e] != structure.membership[p]) {
        structure.replica_point.push_back(p);
        structure.replica_partition.push_back(lists[e]);
      }
  return structure;
}

class KMeansEngine final : public GpuEngine {
 public:
  explicit KMeansEngine(bool replicate) : replicate_(replicate) {}
  std::string name() const override { return replicate_ ? "gpu-kmeans" : "gpu-kmeans-approx"; }
  std::string description() const override {
    return replicate_ ? "KMEANS-JOIN on the GPU (Korkmaz 2012): k-means partitions, replication into "
                        "the eps-bands along the bisectors, all partitions joined in one launch"
                      : "KMEANS-JOIN on the GPU without replication: fast, may miss pairs across "
                        "partition borders";
  }
  Capabilities capabilities() const override {
    Capabilities caps = GpuEngine::capabilities();
    caps.exact = replicate_;
    return caps;
  }

  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                RunControl& control) override {
    RunResult result;
    RunStats& stats = result.stats;
    stats.device = select_device(params);
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
      stats.add_phase("upload", timer.seconds());
    }
    const DevicePoints& db = self ? da : db_own;
    const std::size_t stride = da.stride;

    control.set_phase("k-means");
    const std::size_t k = choose_k(params.k, a.size(), stats.notes);
    DeviceClustering clustering;
    DeviceBuffer<std::uint32_t> membership_b;
    {
      EventTimer timer;
      clustering = cluster_points(a, da, k, params.seed, control);
      if (!self) {
        membership_b = DeviceBuffer<std::uint32_t>(b.size(), "membership of B");
        assign_nearest(db, clustering, membership_b.data());
      }
      stats.add_phase("k-means", timer.seconds());
    }
    stats.k = int(k);
    stats.notes.push_back("k-means++ seeds from a sample of " + std::to_string(clustering.sample) +
                          " points, " + std::to_string(clustering.iterations) + " Lloyd iterations");

    control.set_phase("replication");
    const DeviceBuffer<double> gaps = centroid_gaps(clustering, stride);
    PartitionedPoints parts_a = partition_points(da, clustering.membership.data(), clustering, gaps.data(),
                                                 params.eps, replicate_);
    PartitionedPoints parts_b_own;
    if (!self)
      parts_b_own = partition_points(db, membership_b.data(), clustering, gaps.data(), params.eps, replicate_);
    const PartitionedPoints& parts_b = self ? parts_a : parts_b_own;
    stats.add_phase("replication", parts_a.replication_seconds + parts_b_own.replication_seconds);
    stats.add_phase("sort", parts_a.sort_seconds + parts_b_own.sort_seconds);
    stats.replicated_points = (parts_a.entries - a.size()) + (self ? 0 : parts_b.entries - b.size());

    // Work items: per partition, the triangle (self-join) or rectangle of its tile pairs.
    std::vector<unsigned long long> item_begin(k + 1, 0);
    std::uint64_t compared = 0;
    for (std::size_t c = 0; c < k; ++c) {
      const std::uint64_t size_a = parts_a.part_begin_host[c + 1] - parts_a.part_begin_host[c];
      const std::uint64_t size_b = parts_b.part_begin_host[c + 1] - parts_b.part_begin_host[c];
      const std::uint64_t tiles_a = (size_a + tile::kTile - 1) / tile::kTile;
      const std::uint64_t tiles_b = (size_b + tile::kTile - 1) / tile::kTile;
      item_begin[c + 1] = item_begin[c] + (self ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b);
      compared += self ? size_a * (size_a - (size_a > 0)) / 2 : size_a * size_b;
    }
    DeviceBuffer<unsigned long long> item_begin_device(k + 1, "work item offsets");
    item_begin_device.upload(item_begin.data(), k + 1);

    control.set_phase("join");
    BatchedPairOutput output(sink, params, std::uint64_t(tile::kTile) * tile::kTile);
    const float eps2 = squared_eps32(params.eps);
    output.run(item_begin[k], [&](std::uint64_t first, std::uint64_t last, const PairOutput& out) {
      kmeans_join_kernel<<<persistent_blocks(last - first, kBlocksPerMultiprocessor), tile::kThreads>>>(
          view(parts_a), view(parts_b), item_begin_device.data(), std::uint32_t(k), unsigned(stride), eps2,
          self, first, last, out);
    }, control, stats);
    stats.compared_pairs = compared;
    result.partitions = describe(a, clustering, parts_a, stride);
    return result;
  }

 private:
  bool replicate_;
};
}  // namespace

std::unique_ptr<Engine> make_kmeans_engine(bool replicate) { return std::make_unique<KMeansEngine>(replicate); }

}  // namespace simjoin::gpu
