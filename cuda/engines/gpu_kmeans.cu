#include "cuda/engines/gpu_kmeans.hpp"

#include <algorithm>
#include <cstdio>

#include "cuda/detail/kmeans_cost.hpp"
#include "cuda/detail/kmeans_join.hpp"
#include "cuda/detail/multi_device.hpp"
#include "cuda/engines/gpu_bruteforce.hpp"

namespace simjoin::gpu {

namespace {
// The structure for the views, from compact device arrays: no per-point loops on the host.
PartitionStructure describe(const PointSet32& a, const DeviceClustering& clustering, const PartitionedPoints& parts,
                            std::size_t stride) {
  PartitionStructure structure;
  if (!parts.listed) return structure;  // the copies were counted, too many to list (a note says so)
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
void join_on_devices(GpuRun& run, const DeviceExact& exact, const PartitionedPoints& parts_a,
                     const PartitionedPoints& parts_b, std::size_t k) {
  const std::vector<int>& devices = run.devices;
  const bool self = run.self();
  RunStats& stats = run.stats();
  const JoinShape shape = self ? JoinShape::Self : JoinShape::Cross;
  const PartitionWork work = partition_work(parts_a, parts_b, shape, k);
  const std::uint64_t items = work.item_begin.back();
  if (devices.size() > 1)
    stats.notes.push_back("join work items split into " + std::to_string(devices.size()) +
                          " equal shares, one per GPU; GPU " + std::to_string(devices.front()) +
                          " clustered and partitioned");
  std::vector<RunStats> shares(devices.size());
  SharedProgress progress(run.control, double(items));
  on_each_device(devices, progress, [&](std::size_t s) {
    const auto [first, last] = share_range(items, s, devices.size());
    if (s == 0) {
      join_partition_items({parts_a, parts_b, shape}, work, first, last,
                           {exact.test, run.resources, run.params, run.sink, shares[s]}, progress);
      return;
    }
    PartitionedPoints copy_a, copy_b;
    DeviceExact copy_exact;
    {
      Phase phase(shares[s], "copy to GPU");
      enable_peer_access(devices.front());
      copy_a = copy_for_join(parts_a, devices.front());
      if (!self) copy_b = copy_for_join(parts_b, devices.front());
      copy_exact = upload_exact(run.resources, run.inputs);
    }
    join_partition_items({copy_a, self ? copy_a : copy_b, shape}, work, first, last,
                         {copy_exact.test, run.resources, run.params, run.sink, shares[s]}, progress);
  });
  merge_share_stats(devices, shares, stats);
  stats.compared_pairs += work.compared;
}

// Whether joining the partitions compares fewer pairs than the brute force's join of the whole set
// would take the time of. On data without separated clusters (a manifold, wide overlapping components)
// a wide eps copies most points into many partitions, which then compare about as many pairs as the
// whole set holds, or more; the whole set is then joined by the brute force's all-pairs kernel, which
// from kTensorMinDims on runs on tensor cores at about twice the partition kernel's rate a pair
// (docs/benchmarks.md, "Data without clusters"), below that on the same CUDA-core tiles. Notes say
// which, with the counts that explain it.
double pruning_share(std::size_t dims) { return dims >= kTensorMinDims ? 0.5 : 1.0; }

// The k to cluster at: the one asked for; formula_k's below kKModelMinPoints points or
// kKModelMinCoordinates coordinates, or where the partitions are not replicated; else the cost model's on
// a sample (kmeans_cost.hpp). 0 where even its fewest estimated distance tests reach kCannotPruneShare times
// the whole set's pairs, as partitions_prune below would find after clustering: the whole set is then
// joined by the brute force without seeding, k-means or replication, unless the views ask for the
// partitions. On the manifold stand-ins at 16 and 64 neighbours a point the model estimated 14 and 18
// times the whole set's pairs at its smallest k (32); on 1 M x 128 in 10,000 tight clusters at eps 0.09,
// 1.3 % of them at k 1024 (docs/benchmarks.md, "k from a sample").
constexpr double kCannotPruneShare = 4;
constexpr std::size_t kModelLastK = 4096;

std::size_t choose_join_k(GpuRun& run, const DeviceInputs& device, bool replicate) {
  const PointSet32& a = *run.inputs.a;
  RunStats& stats = run.stats();
  if (run.params.k > 0 || !replicate || a.size() < kKModelMinPoints ||
      double(a.size()) * double(a.dims()) < kKModelMinCoordinates)
    return choose_k(run.params.k, a.size(), a.dims(), stats.notes);
  Phase phase(run, "choosing k");
  const KChoice choice = model_k(device.a, run.self() ? nullptr : &device.b, a.dims(), run.inputs.search_radius,
                                 formula_k(a.size(), a.dims()), kModelLastK, run.params.seed, run.control);
  note_model(choice, stats.notes);
  if (choice.fewest < kCannotPruneShare * choice.whole || run.params.structures) return choice.k;
  stats.estimated_tests = std::uint64_t(std::min(choice.fewest, 1e19));
  stats.notes.push_back("the cost model's partitions would compare at least " +
                        std::to_string(int(std::min(100 * choice.fewest / choice.whole, 1e9))) +
                        " % of the whole set's pairs: KMEANS-JOIN cannot prune this data at this eps, so the whole "
                        "set was joined by the brute force, without k-means");
  return 0;
}

bool partitions_prune(const PartitionedPoints& a, const PartitionedPoints& b, bool self, std::size_t k,
                      std::size_t dims, RunStats& stats) {
  const std::uint64_t n_a = a.source_rows, n_b = b.source_rows;
  const double copies_per_point = double(a.entries + (self ? 0 : b.entries)) / double(n_a + (self ? 0 : n_b));
  char per_point[32];
  std::snprintf(per_point, sizeof per_point, "%.2f", copies_per_point);
  const std::string copies =
      std::to_string(a.entries - n_a + (self ? 0 : b.entries - n_b)) + " copies (" + per_point + " partitions a point)";
  if (!a.listed || !b.listed) {
    stats.notes.push_back("replication counted " + copies +
                          ", too many to list in the GPU's memory: the whole set was joined by the brute force");
    return false;
  }
  const double whole = self ? double(n_a) * double(n_a - (n_a > 0)) / 2 : double(n_a) * double(n_b);
  const double compared = double(partition_work(a, b, self ? JoinShape::Self : JoinShape::Cross, k).compared);
  stats.estimated_tests = std::uint64_t(compared);
  if (compared <= pruning_share(dims) * whole) return true;
  stats.notes.push_back("replication made " + copies + "; the partitions would compare " +
                        std::to_string(std::uint64_t(compared)) + " pairs, " +
                        std::to_string(int(100 * compared / whole)) +
                        " % of the whole set's: KMEANS-JOIN cannot prune this data at this eps, so the whole set "
                        "was joined by the brute force");
  return false;
}

// Before the brute-force fallback, which reads none of the partitioning: frees it for the brute
// force's buffers, but for A's membership lists where the views ask for the partition structure
// (`keep_lists`: describe reads them).
void release_partitioning(PartitionedPoints& parts_a, PartitionedPoints& parts_b_own,
                          DeviceBuffer<std::uint32_t>& membership_b, bool keep_lists) {
  parts_b_own = {};
  membership_b = {};
  if (!keep_lists) {
    parts_a = {};
    return;
  }
  parts_a.grouped_ids = {};
  parts_a.part_begin = {};
}

}  // namespace

std::string GpuKMeansEngine::description() const {
  return replicate_ ? "KMEANS-JOIN on the GPU (Korkmaz 2012): k-means partitions, replication into "
                      "the eps-bands along the bisectors, all partitions joined in one launch"
                    : "KMEANS-JOIN on the GPU without replication: fast, may miss pairs across "
                      "partition borders";
}

Capabilities GpuKMeansEngine::capabilities() const {
  Capabilities caps = GpuEngine::capabilities();
  caps.exact = replicate_;
  caps.spread_matters = true;  // where partitions cannot prune, it joins the whole set by the brute force's form
  return caps;
}

void GpuKMeansEngine::join(GpuRun& run) const {
  RunStats& stats = run.stats();
  const PointSet32& a = *run.inputs.a;
  const bool self = run.self();
  const DeviceInputs device = upload_inputs(run.resources, run.inputs, kKMeansRowMultiple, stats, &run.control);
  const std::size_t stride = device.a.stride;

  const std::size_t k = choose_join_k(run, device, replicate_);
  if (k == 0) return join_all_pairs(run, device);
  DeviceClustering clustering;
  DeviceBuffer<std::uint32_t> membership_b;
  {
    Phase phase(run, "k-means seeding");
    clustering = seed_clustering(run.resources, a, k, run.params.seed);
  }
  {
    Phase phase(run, "k-means");
    refine_clustering(device.a, clustering, run.control);
    if (!self) {
      membership_b = DeviceBuffer<std::uint32_t>(device.b.n, "membership of B");
      assign_nearest(device.b, clustering, membership_b.data());
    }
  }
  stats.k = int(k);
  stats.notes.push_back("k-means++ seeds from a sample of " + std::to_string(clustering.sample) + " points, " +
                        std::to_string(clustering.iterations) + " Lloyd iterations" +
                        (clustering.fitted < a.size()
                             ? " on " + std::to_string(clustering.fitted) + " evenly spaced points"
                             : std::string()));

  run.control.set_phase("replication");
  const DeviceBuffer<double> gaps = centroid_gaps(clustering, stride);
  PartitionedPoints parts_a = partition_points(device.a, clustering.membership.data(), clustering, gaps.data(),
                                               run.inputs.search_radius, replicate_);
  PartitionedPoints parts_b_own;
  if (!self)
    parts_b_own =
        partition_points(device.b, membership_b.data(), clustering, gaps.data(), run.inputs.search_radius, replicate_);
  const PartitionedPoints& parts_b = self ? parts_a : parts_b_own;
  stats.add_phase("replication", parts_a.replication_seconds + parts_b_own.replication_seconds);
  stats.add_phase("sort", parts_a.sort_seconds + parts_b_own.sort_seconds);
  stats.replicated_points = (parts_a.entries - a.size()) + (self ? 0 : parts_b.entries - device.b.n);

  if (!replicate_ || partitions_prune(parts_a, parts_b, self, k, a.dims(), stats)) {
    join_on_devices(run, device.exact, parts_a, parts_b, k);
  } else {
    release_partitioning(parts_a, parts_b_own, membership_b, run.params.structures);
    join_all_pairs(run, device);
  }
  if (!run.params.structures) return;
  Phase phase(stats, "partition structure");
  run.result.partitions = describe(a, clustering, parts_a, stride);
}

}  // namespace simjoin::gpu
