#include "cuda/rejoin.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "core/join_frame.hpp"
#include "cuda/exact_device.hpp"
#include "cuda/gpu_engine_base.hpp"
#include "cuda/kmeans_join.hpp"

namespace simjoin {

// Every batch is moved into the frame of the initial points and eps (core/join_frame.hpp); the
// kernels compute in it and the exact test decides on the file's values. The frame's band is proven
// for coordinates within the initial points' extent; a batch reaching beyond it gets a note.
struct RejoinSession::State {
  double threshold = 0;
  double eps = 0;     // the caller's
  JoinParams params;  // the frame's search radius, seed, device
  std::size_t dims = 0, k = 0;
  bool started = false;
  std::optional<JoinFrame> frame;
  gpu::DevicePoints points;           // all points in frame coordinates, in arrival order
  gpu::DeviceBuffer<double> values;   // the same points' file values
  gpu::DeviceClustering clustering;
  PairListSink pairs;

  ExactPairTest test() const { return {frame->band(), values.data(), values.data(), dims}; }
};

namespace {
using Clock = std::chrono::steady_clock;

void finish_batch(RejoinBatch& batch, std::uint64_t added, std::uint64_t total, std::size_t k, std::size_t n,
                  Clock::time_point start) {
  batch.pairs_added = added;
  batch.total_pairs = total;
  batch.stats.k = int(k);
  batch.stats.n = n;
  batch.stats.pairs = added;
  batch.stats.seconds_total = std::chrono::duration<double>(Clock::now() - start).count();
}

// The held values, then the new ones, in one device array.
template <typename T>
gpu::DeviceBuffer<T> concatenate(const gpu::DeviceBuffer<T>& held, const gpu::DeviceBuffer<T>& fresh, const char* what) {
  gpu::DeviceBuffer<T> all(held.size() + fresh.size(), what);
  SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(all.data(), held.data(), held.bytes(), cudaMemcpyDeviceToDevice));
  SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(all.data() + held.size(), fresh.data(), fresh.bytes(), cudaMemcpyDeviceToDevice));
  return all;
}

RunStats begin_stats(const JoinParams& params, double eps, std::size_t dims) {
  RunStats stats;
  stats.engine = "gpu-rejoin";
  stats.device = gpu::select_device(params);
  stats.eps = eps;
  stats.d = dims;
  return stats;
}

// True when a coordinate of `points` lies beyond the frame's extent.
bool outside_extent(const JoinFrame& frame, const PointSet& points) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < points.dims(); ++k)
      if (!(std::fabs(points.point(i)[k] - frame.to_file_coordinate(0, k)) <= frame.half_extent()[k])) return true;
  return false;
}
}  // namespace

RejoinSession::RejoinSession(double threshold, std::uint64_t seed, int device) : state_(std::make_unique<State>()) {
  if (!std::isfinite(threshold) || threshold < 0)
    fail(ErrorKind::Usage, "the reclustering threshold must be a finite number >= 0");
  state_->threshold = threshold;
  state_->params.seed = seed;
  state_->params.devices = {device};
}

RejoinSession::~RejoinSession() = default;

const std::vector<Pair>& RejoinSession::pairs() const { return state_->pairs.pairs(); }
std::size_t RejoinSession::size() const { return state_->points.n; }

RejoinBatch RejoinSession::initial(const PointSet& points, double eps, int k, RunControl* control) {
  State& s = *state_;
  if (s.started) fail(ErrorKind::Usage, "RE-JOIN: the initial points were given already");
  if (points.empty()) fail(ErrorKind::Usage, "RE-JOIN needs at least one initial point");
  if (!std::isfinite(eps) || eps < 0) fail(ErrorKind::Usage, "eps must be a finite number >= 0");
  if (points.size() > std::numeric_limits<std::uint32_t>::max())
    fail(ErrorKind::Usage, "RE-JOIN holds at most 2^32 - 1 points");
  RunControl own_control;
  RunControl& run_control = control ? *control : own_control;
  const auto start = Clock::now();
  s.eps = eps;
  s.dims = points.dims();
  RejoinBatch batch;
  RunStats& stats = batch.stats;
  stats = begin_stats(s.params, eps, s.dims);
  s.frame.emplace(points, nullptr, eps);
  s.params.eps = s.frame->search_eps();
  const PointSet32 framed = s.frame->to_frame(points);
  {
    PhaseTimer timer(stats, "upload");
    s.points = gpu::upload_points(framed);
    s.values = gpu::upload_values(points);
  }
  s.k = gpu::choose_k(k, points.size(), stats.notes);
  {
    PhaseTimer timer(stats, "k-means seeding");
    s.clustering = gpu::seed_clustering(framed, s.points.stride, s.k, s.params.seed);
  }
  {
    PhaseTimer timer(stats, "k-means");
    gpu::refine_clustering(s.points, s.clustering, run_control);
  }
  s.started = true;
  const std::uint64_t before = s.pairs.count();
  const gpu::DeviceBuffer<double> gaps = gpu::centroid_gaps(s.clustering, s.points.stride);
  const gpu::PartitionedPoints parts = gpu::partition_points(s.points, s.clustering.membership.data(),
                                                             s.clustering, gaps.data(), s.params.eps, true);
  stats.add_phase("replication", parts.replication_seconds);
  stats.add_phase("sort", parts.sort_seconds);
  stats.replicated_points = parts.entries - points.size();
  gpu::join_partitions(parts, parts, gpu::JoinShape::Self, 0, s.k, s.points.stride, s.test(), s.params, s.pairs,
                       run_control, stats);
  batch.new_points = points.size();
  finish_batch(batch, s.pairs.count() - before, s.pairs.count(), s.k, s.points.n, start);
  return batch;
}

RejoinBatch RejoinSession::update(const PointSet& new_points, RunControl* control) {
  State& s = *state_;
  if (!s.started) fail(ErrorKind::Usage, "RE-JOIN: give the initial points before an update");
  if (new_points.dims() != s.dims && !new_points.empty())
    fail(ErrorKind::BadInput, "RE-JOIN update has " + std::to_string(new_points.dims()) +
                                  " dimensions, the points so far have " + std::to_string(s.dims));
  if (s.points.n + new_points.size() > std::numeric_limits<std::uint32_t>::max())
    fail(ErrorKind::Usage, "RE-JOIN holds at most 2^32 - 1 points");
  RejoinBatch batch;
  batch.new_points = new_points.size();
  batch.total_pairs = s.pairs.count();
  if (new_points.empty()) return batch;
  RunControl own_control;
  RunControl& run_control = control ? *control : own_control;
  const auto start = Clock::now();
  RunStats& stats = batch.stats;
  stats = begin_stats(s.params, s.eps, s.dims);
  if (outside_extent(*s.frame, new_points))
    stats.notes.push_back("points beyond the initial points' extent: float32 rounding there is past what the "
                          "exact test's band was proven for");
  const std::size_t held = s.points.n;
  gpu::DevicePoints fresh;
  {
    PhaseTimer timer(stats, "upload");
    fresh = gpu::upload_points(s.frame->to_frame(new_points));
    s.points.coords = concatenate(s.points.coords, fresh.coords, "point coordinates");
    s.points.n += fresh.n;
    s.values = concatenate(s.values, gpu::upload_values(new_points), "float64 point values");
  }
  {
    // The new points join the partition of their nearest centroid; then the quality metric decides.
    PhaseTimer timer(stats, "assignment");
    gpu::DeviceBuffer<std::uint32_t> membership(s.points.n, "k-means membership");
    SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(membership.data(), s.clustering.membership.data(),
                                       held * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice));
    gpu::assign_nearest(fresh, s.clustering, membership.data() + held);
    s.clustering.membership = std::move(membership);
    batch.displacement = s.frame->to_file_length(gpu::centroid_displacement(s.points, s.clustering));
  }
  if (batch.displacement > s.threshold) {
    PhaseTimer timer(stats, "k-means");
    const int before = s.clustering.iterations;
    gpu::refine_clustering(s.points, s.clustering, run_control);
    batch.reclustered = true;
    stats.notes.push_back("reclustered: " + std::to_string(s.clustering.iterations - before) + " Lloyd rounds");
  }
  const std::uint64_t before = s.pairs.count();
  const gpu::DeviceBuffer<double> gaps = gpu::centroid_gaps(s.clustering, s.points.stride);
  const gpu::PartitionedPoints all = gpu::partition_points(s.points, s.clustering.membership.data(), s.clustering,
                                                           gaps.data(), s.params.eps, true);
  const gpu::PartitionedPoints added = gpu::partition_points(
      fresh, s.clustering.membership.data() + held, s.clustering, gaps.data(), s.params.eps, true);
  stats.add_phase("replication", all.replication_seconds + added.replication_seconds);
  stats.add_phase("sort", all.sort_seconds + added.sort_seconds);
  stats.replicated_points = all.entries - s.points.n;
  gpu::join_partitions(added, all, gpu::JoinShape::NewAgainstAll, std::uint32_t(held), s.k, s.points.stride,
                       s.test(), s.params, s.pairs, run_control, stats);
  finish_batch(batch, s.pairs.count() - before, s.pairs.count(), s.k, s.points.n, start);
  return batch;
}

}  // namespace simjoin
