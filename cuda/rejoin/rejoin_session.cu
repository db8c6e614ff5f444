#include "cuda/rejoin.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "core/frame/join_frame.hpp"
#include "core/join/eps_rule.hpp"
#include "cuda/detail/exact_device.hpp"
#include "cuda/detail/kmeans_join.hpp"
#include "cuda/detail/multi_device.hpp"

namespace simjoin {

// Every batch is moved into the frame of the initial points and eps (core/frame/join_frame.hpp); the
// kernels compute in it and the exact test decides on the file's values. The frame's band is proven
// for coordinates within the initial points' extent; a batch reaching beyond it gets a note.
struct RejoinSession::State {
  double threshold = 0;
  double eps = 0;     // the caller's
  JoinParams params;  // the caller's eps, seed, device
  std::size_t dims = 0, k = 0;
  bool started = false;
  std::optional<JoinFrame> frame;
  gpu::DevicePoints points;          // all points in frame coordinates, in arrival order
  gpu::DeviceBuffer<double> values;  // the same points' file values
  gpu::DeviceClustering clustering;
  PairListSink pairs;
  // The session's pinned buffers and streams, kept from step to step (made once, by the constructor).
  std::shared_ptr<gpu::GpuResources> resources;

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

// A device copy of `held` with room for `extra` values after it.
template <typename T>
gpu::DeviceBuffer<T> extended(const gpu::DeviceBuffer<T>& held, std::size_t extra, const char* what) {
  gpu::DeviceBuffer<T> all(held.size() + extra, what);
  SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(all.data(), held.data(), held.bytes(), cudaMemcpyDeviceToDevice));
  return all;
}

// The held values, then the new ones, in one device array.
template <typename T>
gpu::DeviceBuffer<T> concatenate(const gpu::DeviceBuffer<T>& held, const gpu::DeviceBuffer<T>& fresh,
                                 const char* what) {
  gpu::DeviceBuffer<T> all = extended(held, fresh.size(), what);
  SIMJOIN_CUDA_CHECK(cudaMemcpyAsync(all.data() + held.size(), fresh.data(), fresh.bytes(), cudaMemcpyDeviceToDevice));
  return all;
}

RunStats begin_stats(const JoinParams& params, double eps, std::size_t dims) {
  RunStats stats;
  stats.engine = "gpu-rejoin";
  stats.device = gpu::device_label(gpu::select_devices(params, false));
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

// The held points with a batch after them, on the device: the batch alone and all points, in frame
// coordinates, and all points' file values.
struct AppendedPoints {
  gpu::DevicePoints fresh, all;
  gpu::DeviceBuffer<double> values;
};

AppendedPoints append_points(gpu::GpuResources& resources, const gpu::DevicePoints& held,
                             const gpu::DeviceBuffer<double>& held_values, const JoinFrame& frame,
                             const PointSet& new_points, RunStats& stats) {
  PhaseTimer timer(stats, "upload");
  AppendedPoints out;
  out.fresh = gpu::upload_points(resources, frame.to_frame(new_points), gpu::kKMeansRowMultiple);
  out.all.coords = concatenate(held.coords, out.fresh.coords, "point coordinates");
  out.all.n = held.n + out.fresh.n;
  out.all.stride = held.stride;
  out.values = concatenate(held_values, gpu::upload_values(resources, new_points), "float64 point values");
  return out;
}

// A copy of the clustering with the new points in the partition of their nearest centroid, and how
// far that moved the centroids (batch.displacement, in file units): the quality metric then decides.
gpu::DeviceClustering assign_new_points(const gpu::DeviceClustering& held_clustering, const AppendedPoints& points,
                                        std::size_t held, const JoinFrame& frame, RejoinBatch& batch) {
  PhaseTimer timer(batch.stats, "assignment");
  gpu::DeviceClustering clustering;
  clustering.k = held_clustering.k;
  clustering.sample = held_clustering.sample;
  clustering.iterations = held_clustering.iterations;
  clustering.tolerance = held_clustering.tolerance;
  clustering.centroids = extended(held_clustering.centroids, 0, "k-means centroids");
  clustering.membership = extended(held_clustering.membership, points.fresh.n, "k-means membership");
  gpu::assign_nearest(points.fresh, clustering, clustering.membership.data() + held);
  batch.displacement = frame.to_file_length(gpu::centroid_displacement(points.all, clustering));
  return clustering;
}
}  // namespace

RejoinSession::RejoinSession(double threshold, std::uint64_t seed, int device) : state_(std::make_unique<State>()) {
  if (!std::isfinite(threshold) || threshold < 0)
    fail(ErrorKind::Usage, "the reclustering threshold must be a finite number >= 0");
  state_->threshold = threshold;
  state_->resources = std::make_shared<gpu::GpuResources>();
  state_->params.seed = seed;
  state_->params.devices = {device};
}

RejoinSession::~RejoinSession() = default;

const std::vector<Pair>& RejoinSession::pairs() const { return state_->pairs.pairs(); }
std::size_t RejoinSession::size() const { return state_->points.n; }

RejoinBatch RejoinSession::initial(const PointSet& points, double eps, int k, RunControl* control) {
  if (state_->started) fail(ErrorKind::Usage, "RE-JOIN: the initial points were given already");
  if (points.empty()) fail(ErrorKind::Usage, "RE-JOIN needs at least one initial point");
  check_eps(eps);
  if (points.size() > std::numeric_limits<std::uint32_t>::max())
    fail(ErrorKind::Usage, "RE-JOIN holds at most 2^32 - 1 points");
  RunControl own_control;
  RunControl& run_control = control ? *control : own_control;
  const auto start = Clock::now();
  // Built aside and taken over only once complete: a failed or cancelled start leaves the session unstarted.
  auto next = std::make_unique<State>();
  State& s = *next;
  s.threshold = state_->threshold;
  s.params = state_->params;
  s.resources = state_->resources;
  s.eps = eps;
  s.dims = points.dims();
  RejoinBatch batch;
  RunStats& stats = batch.stats;
  stats = begin_stats(s.params, eps, s.dims);
  s.frame.emplace(points, nullptr, eps);
  s.params.eps = eps;
  const PointSet32 framed = s.frame->to_frame(points);
  {
    PhaseTimer timer(stats, "upload");
    s.points = gpu::upload_points(*s.resources, framed, gpu::kKMeansRowMultiple);
    s.values = gpu::upload_values(*s.resources, points);
  }
  s.k = gpu::choose_k(k, points.size(), points.dims(), stats.notes);
  {
    PhaseTimer timer(stats, "k-means seeding");
    s.clustering = gpu::seed_clustering(*s.resources, framed, s.k, s.params.seed);
  }
  {
    PhaseTimer timer(stats, "k-means");
    gpu::refine_clustering(s.points, s.clustering, run_control);
  }
  run_control.throw_if_cancelled();
  const gpu::DeviceBuffer<double> gaps = gpu::centroid_gaps(s.clustering, s.points.stride);
  const gpu::PartitionedPoints parts = gpu::partition_points(s.points, s.clustering.membership.data(), s.clustering,
                                                             gaps.data(), s.frame->search_radius(), true);
  stats.add_phase("replication", parts.replication_seconds);
  stats.add_phase("sort", parts.sort_seconds);
  stats.replicated_points = parts.entries - points.size();
  gpu::join_partitions({parts, parts, gpu::JoinShape::Self}, s.k, {s.test(), *s.resources, s.params, s.pairs, stats},
                       run_control);
  s.started = true;
  state_ = std::move(next);
  batch.new_points = points.size();
  finish_batch(batch, s.pairs.count(), s.pairs.count(), s.k, s.points.n, start);
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
    stats.notes.push_back(
        "points beyond the initial points' extent: float32 rounding there is past what the "
        "exact test's band was proven for");
  // The step works on copies and changes the session only once it is complete: a failed or cancelled
  // step leaves it as it was.
  const std::size_t held = s.points.n;
  AppendedPoints appended = append_points(*s.resources, s.points, s.values, *s.frame, new_points, stats);
  gpu::DevicePoints& fresh = appended.fresh;
  gpu::DevicePoints& all_points = appended.all;
  gpu::DeviceBuffer<double>& values = appended.values;
  gpu::DeviceClustering clustering = assign_new_points(s.clustering, appended, held, *s.frame, batch);
  if (batch.displacement > s.threshold) {
    PhaseTimer timer(stats, "k-means");
    gpu::refine_clustering(all_points, clustering, run_control);
    batch.reclustered = true;
    stats.notes.push_back("reclustered: " + std::to_string(clustering.iterations - s.clustering.iterations) +
                          " Lloyd rounds");
  }
  run_control.throw_if_cancelled();
  const gpu::DeviceBuffer<double> gaps = gpu::centroid_gaps(clustering, all_points.stride);
  const gpu::PartitionedPoints all = gpu::partition_points(all_points, clustering.membership.data(), clustering,
                                                           gaps.data(), s.frame->search_radius(), true);
  const gpu::PartitionedPoints added = gpu::partition_points(fresh, clustering.membership.data() + held, clustering,
                                                             gaps.data(), s.frame->search_radius(), true);
  stats.add_phase("replication", all.replication_seconds + added.replication_seconds);
  stats.add_phase("sort", all.sort_seconds + added.sort_seconds);
  stats.replicated_points = all.entries - all_points.n;
  const ExactPairTest test{s.frame->band(), values.data(), values.data(), s.dims};
  PairListSink found;
  gpu::join_partitions({added, all, gpu::JoinShape::NewAgainstAll, std::uint32_t(held)}, s.k,
                       {test, *s.resources, s.params, found, stats}, run_control);
  s.points = std::move(all_points);
  s.values = std::move(values);
  s.clustering = std::move(clustering);
  s.pairs.add(found.pairs());
  finish_batch(batch, found.count(), s.pairs.count(), s.k, s.points.n, start);
  return batch;
}

}  // namespace simjoin
