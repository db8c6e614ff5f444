// gpu-kmeans and gpu-kmeans-approx: KMEANS-JOIN (Korkmaz 2012, section 4.3) on the GPU. k-means
// partitions, replication into the bisector bands (skipped by the approximate variant), grouping by
// partition, then all partitions joined at once (cuda/kmeans_join.hpp), split across the GPUs when
// several are used. Phases measured on the host include the host work around the device steps, so
// that the phases account for the whole run.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "cuda/exact_device.hpp"
#include "cuda/gpu_engine_base.hpp"
#include "cuda/kmeans_join.hpp"
#include "cuda/multi_device.hpp"
#include "cuda/nested_loop_engines.hpp"

namespace simjoin::gpu {

namespace {
// The structure for the views, from compact device arrays: no per-point loops on the host.
PartitionStructure describe(const PointSet32& a, const DeviceClustering& clustering, const PartitionedPoints& parts,
                            std::size_t stride) {
  PartitionStructure structure;
  structure.k = clustering.k;
  structure.iterations = clustering.iterations;
  structure.centroids = download_centroids(clustering, stride, a.dims());
  structure.membership.resize(a.size());
  clustering.membership.download(structure.membership.data(), a.size());
  download_replicas(parts, clustering.membership.data(), a.size(), structure.replica_point,
                    structure.replica_partition);
  return structure;
}

// k-means and replication run on the first GPU; the join's work items are split evenly across all of
// them, each other GPU joining a copy of the grouped points and of the file's values (`exact` holds
// them on the first).
void join_on_devices(const std::vector<int>& devices, const JoinInputs& inputs, const DeviceExact& exact,
                     const PartitionedPoints& parts_a, const PartitionedPoints& parts_b, std::size_t k,
                     std::size_t stride, const JoinParams& params, PairSink& sink, RunControl& control, RunStats& stats) {
  const bool self = inputs.self_join();
  const JoinShape shape = self ? JoinShape::Self : JoinShape::Cross;
  const PartitionWork work = partition_work(parts_a, parts_b, shape, k);
  const std::uint64_t items = work.item_begin.back();
  if (devices.size() > 1)
    stats.notes.push_back("join work items split into " + std::to_string(devices.size()) +
                          " equal shares, one per GPU; GPU " + std::to_string(devices.front()) +
                          " clustered and partitioned");
  std::vector<RunStats> shares(devices.size());
  SharedProgress progress(control, double(items));
  on_each_device(devices, progress, [&](std::size_t s) {
    const auto [first, last] = share_range(items, s, devices.size());
    if (s == 0) {
      join_partition_items(parts_a, parts_b, shape, 0, work, first, last, stride, exact.test, params, sink,
                           progress, shares[s]);
      return;
    }
    PartitionedPoints copy_a, copy_b;
    DeviceExact copy_exact;
    {
      PhaseTimer timer(shares[s], "copy to GPU");
      enable_peer_access(devices.front());
      copy_a = copy_for_join(parts_a, devices.front());
      if (!self) copy_b = copy_for_join(parts_b, devices.front());
      copy_exact = upload_exact(inputs);
    }
    join_partition_items(copy_a, self ? copy_a : copy_b, shape, 0, work, first, last, stride, copy_exact.test,
                         params, sink, progress, shares[s]);
  });
  merge_share_stats(devices, shares, stats);
  stats.compared_pairs += work.compared;
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
    const std::vector<int> devices = run_devices(params);
    {
      PhaseTimer timer(stats, "device setup");
      SIMJOIN_CUDA_CHECK(cudaSetDevice(devices.front()));
      stats.device = device_label(devices);
    }
    const PointSet32& a = *inputs.a;
    const PointSet32& b = inputs.queries();
    if (a.empty() || b.empty()) return result;
    const bool self = inputs.self_join();
    control.set_phase("upload");
    DevicePoints da, db_own;
    DeviceExact exact;
    {
      PhaseTimer timer(stats, "upload");
      da = upload_points(a);
      if (!self) db_own = upload_points(b);
      exact = upload_exact(inputs);
    }
    const DevicePoints& db = self ? da : db_own;
    const std::size_t stride = da.stride;

    control.set_phase("k-means");
    const std::size_t k = choose_k(params.k, a.size(), stats.notes);
    DeviceClustering clustering;
    DeviceBuffer<std::uint32_t> membership_b;
    {
      PhaseTimer timer(stats, "k-means seeding");
      clustering = seed_clustering(a, stride, k, params.seed);
    }
    {
      PhaseTimer timer(stats, "k-means");
      refine_clustering(da, clustering, control);
      if (!self) {
        membership_b = DeviceBuffer<std::uint32_t>(b.size(), "membership of B");
        assign_nearest(db, clustering, membership_b.data());
      }
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

    control.set_phase("join");
    {
      // Host time of the join loop outside its kernels and copies (result buffers, handing pairs to
      // the sink) is reported as "pair delivery".
      const auto start = std::chrono::steady_clock::now();
      join_on_devices(devices, inputs, exact, parts_a, parts_b, k, stride, params, sink, control, stats);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      stats.add_phase("pair delivery",
                      wall - stats.phase_seconds("join") - stats.phase_seconds("output transfer"));
    }
    {
      PhaseTimer timer(stats, "partition structure");
      result.partitions = describe(a, clustering, parts_a, stride);
    }
    return result;
  }

 private:
  bool replicate_;
};
}  // namespace

std::unique_ptr<Engine> make_kmeans_engine(bool replicate) { return std::make_unique<KMeansEngine>(replicate); }

}  // namespace simjoin::gpu
