#include "cuda/detail/pair_batches.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/device_cancel.hpp"
#include "cuda/detail/device_pool.hpp"

namespace simjoin::gpu {

namespace {
constexpr std::uint64_t kDefaultBatchBytes = std::uint64_t(256) << 20;  // both slots together
// Pairs a slot holds before a run without an estimate has seen how many pairs its items make (64 MiB).
constexpr std::uint64_t kInitialPairs = std::uint64_t(1) << 23;
// Launches are sized to take about this long, so that a cancel is seen within it (plus the hand-over
// of one launch's pairs); the host round trip between launches costs well under 1% of it.
constexpr double kLaunchSeconds = 0.02;
constexpr double kMaxGrowth = 4;  // per launch, while the first small launches find the speed
constexpr double kFill = 0.8;     // of a buffer, planned by the pairs per item seen: room for variation

struct Range {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const { return end - begin; }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

cudaStream_t make_stream() {
  cudaStream_t stream = nullptr;
  SIMJOIN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

cudaEvent_t make_event(unsigned flags = cudaEventDefault) {
  cudaEvent_t event = nullptr;
  SIMJOIN_CUDA_CHECK(cudaEventCreateWithFlags(&event, flags));
  return event;
}

float elapsed_seconds(cudaEvent_t start, cudaEvent_t end) {
  float ms = 0;
  SIMJOIN_CUDA_CHECK(cudaEventElapsedTime(&ms, start, end));
  return ms / 1000.0f;
}

// One of two alternating launch buffers: its own stream, device result, pinned host copy.
struct Slot {
  cudaStream_t stream = make_stream();
  cudaEvent_t kernel_start = make_event(), kernel_end = make_event();
  cudaEvent_t copy_start = make_event(), copy_end = make_event();
  DeviceBuffer<unsigned long long> counters{2, "pair counters"};
  PinnedBuffer<unsigned long long> host_counters{2, "pair counters"};
  DeviceBuffer<Pair> pairs;
  PinnedBuffer<Pair> host_pairs;
  Range range;
  std::uint64_t limit = 0;  // pairs the running launch may write: a buffer kept from an earlier run may be larger
  bool busy = false;

  ~Slot() {
    cudaStreamSynchronize(stream);
    for (cudaEvent_t event : {kernel_start, kernel_end, copy_start, copy_end}) cudaEventDestroy(event);
    cudaStreamDestroy(stream);
  }
  std::uint64_t capacity() const { return pairs.size(); }
  void grow(std::uint64_t capacity) {
    // Freed first: the old and the new buffers are never held together.
    pairs = DeviceBuffer<Pair>();
    host_pairs = PinnedBuffer<Pair>();
    pairs = DeviceBuffer<Pair>(capacity, "result pair buffer");
    host_pairs = PinnedBuffer<Pair>(capacity, "result pair buffer");
  }
  // with_pairs false: count only.
  void launch(const LaunchItems& launch_items, Range r, bool with_pairs, std::uint64_t pair_limit, CancelFlag cancel) {
    range = r;
    limit = with_pairs ? std::min(pair_limit, capacity()) : 0;
    SIMJOIN_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), stream));
    SIMJOIN_CUDA_CHECK(cudaEventRecord(kernel_start, stream));
    launch_items(r.begin, r.end, {with_pairs ? pairs.data() : nullptr, limit, counters.data(), cancel}, stream);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    SIMJOIN_CUDA_CHECK(cudaEventRecord(kernel_end, stream));
    counters.download(host_counters.data(), 2, stream);
    busy = true;
  }
};

// Streams on which the estimate's sample chunks run side by side: one chunk is a few blocks, far too
// few to fill the GPU, and chunks queued on one stream would run one after another.
struct SampleStreams {
  static constexpr int kCount = 8;
  cudaStream_t streams[kCount] = {};
  cudaEvent_t done[kCount] = {};
  cudaEvent_t start = make_event(cudaEventDisableTiming);

  SampleStreams() {
    for (int i = 0; i < kCount; ++i) {
      streams[i] = make_stream();
      done[i] = make_event(cudaEventDisableTiming);
    }
  }
  ~SampleStreams() {
    for (int i = 0; i < kCount; ++i) {
      cudaStreamSynchronize(streams[i]);
      cudaEventDestroy(done[i]);
      cudaStreamDestroy(streams[i]);
    }
    cudaEventDestroy(start);
  }
};
}  // namespace

struct PairSlots {
  int device = 0;
  Slot slot[2];
  SampleStreams sample;
  DeviceCancel cancel;

  // Stops what still runs (raises the cancel flag), waits for every stream and marks both slots free:
  // a run left by an exception (cancellation, failure) must not hand its launches to the next run.
  void settle() noexcept {
    cancel.raise();
    for (Slot& s : slot) {
      cudaStreamSynchronize(s.stream);
      s.busy = false;
    }
    for (cudaStream_t stream : sample.streams) cudaStreamSynchronize(stream);
  }
};

std::shared_ptr<DevicePool<PairSlots>> make_pair_slot_pool() { return std::make_shared<DevicePool<PairSlots>>(); }

namespace {

// Pairs per item from count-only joins of 16 evenly spaced chunks, about 1% of the items, run side by
// side on the sample streams.
double estimate_density(Range items, const LaunchItems& launch, PairSlots& s, const SharedProgress& progress) {
  SampleStreams& side = s.sample;
  Slot& sampler = s.slot[0];
  const std::uint64_t total = items.size();
  const std::uint64_t chunks = std::min<std::uint64_t>(16, total);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, total / (chunks * 100));
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(sampler.counters.data(), 0, 2 * sizeof(unsigned long long), sampler.stream));
  SIMJOIN_CUDA_CHECK(cudaEventRecord(side.start, sampler.stream));
  const int used = int(std::min<std::uint64_t>(chunks, SampleStreams::kCount));
  for (int i = 0; i < used; ++i) SIMJOIN_CUDA_CHECK(cudaStreamWaitEvent(side.streams[i], side.start));
  std::uint64_t sampled = 0;
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const std::uint64_t begin = items.begin + c * (total / chunks);
    const std::uint64_t end = std::min(items.end, begin + chunk);
    launch(begin, end, {nullptr, 0, sampler.counters.data(), s.cancel.flag()}, side.streams[c % SampleStreams::kCount]);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    sampled += end - begin;
  }
  for (int i = 0; i < used; ++i) {
    SIMJOIN_CUDA_CHECK(cudaEventRecord(side.done[i], side.streams[i]));
    SIMJOIN_CUDA_CHECK(cudaStreamWaitEvent(sampler.stream, side.done[i]));
  }
  sampler.counters.download(sampler.host_counters.data(), 2, sampler.stream);
  s.cancel.wait(sampler.stream, progress);
  return double(sampler.host_counters.data()[0]) / double(sampled);
}

// SIMJOIN_GPU_SERIAL_BATCHES set: one launch at a time, without copy/kernel overlap (to measure what
// the overlap gains, docs/benchmarks.md). Read once per process.
bool serial_batches() {
  static const bool serial = std::getenv("SIMJOIN_GPU_SERIAL_BATCHES") != nullptr;
  return serial;
}

// One PairBatches::run over a range of items: launches on the two slots in turn, the older launch's
// copy and the host's handling of its pairs overlapping the kernel just launched; an overflowed launch
// runs again, split or with larger buffers; launches are sized by the speed and pairs per item seen.
class BatchRun {
 public:
  BatchRun(PairSlots& slots, PairSink& sink, const BatchPlan& plan, const LaunchItems& launch, SharedProgress& progress,
           Range items, std::uint64_t budget, bool chosen)
      : s_(slots),
        sink_(sink),
        plan_(plan),
        launch_(launch),
        progress_(progress),
        items_(items),
        budget_(budget),
        chosen_(chosen),
        with_pairs_(sink.wants_pairs()),
        overlap_(!serial_batches()),
        wave_(std::max<std::uint64_t>(1, plan.wave)),
        // The first two launches, made before any has ended, are small: their cost is unknown, and a
        // kernel that does not read the cancel flag cannot be stopped before its end. One that reads it,
        // with its pairs estimated, starts at a third: fewer launches, fewer partly filled last waves.
        span_(std::max(wave_, items.size() / (plan.reads_cancel && plan.estimate ? 3 : 1024))),
        // A batch memory the caller chose is taken whole; the automatic one follows the result.
        target_(chosen          ? budget
                : plan.estimate ? 0
                                : std::min(budget, kInitialPairs)),
        next_item_(items.begin) {}

  // Pairs per item from a sample, before the first launch.
  void estimate(RunStats& stats) {
    const auto start = std::chrono::steady_clock::now();
    density_ = estimate_density(items_, launch_, s_, progress_);
    estimate_ = density_ * double(items_.size());
    stats.add_phase("estimate", seconds_since(start));
    fit_span();
  }

  void launch_all() {
    int next = 0;
    for (;;) {
      progress_.throw_if_cancelled();
      Slot& slot = s_.slot[next];
      if (slot.busy) finish(slot);
      Range r;
      if (!take(r)) {
        Slot& other = s_.slot[1 - next];
        if (!other.busy) break;
        finish(other);  // may queue a launch again
        continue;
      }
      if (with_pairs_ && slot.capacity() < target_)
        slot.grow(std::max(target_, std::min(std::max(budget_, target_), 2 * slot.capacity())));
      // A chosen batch memory bounds every launch, also where a kept buffer is larger.
      slot.launch(launch_, r, with_pairs_, chosen_ ? target_ : slot.capacity(), s_.cancel.flag());
      if (!overlap_) finish(slot);
      next = 1 - next;
      // The older launch's copy and the host's handling of its pairs overlap the kernel just launched.
      if (s_.slot[next].busy) finish(s_.slot[next]);
    }
  }

  void record(RunStats& stats, double join_seconds) const {
    stats.add_phase("join", join_seconds);
    if (with_pairs_) {
      stats.add_phase("output transfer", transfer_seconds_);
      stats.add_phase("sink delivery", delivery_seconds_);
    }
    stats.compared_pairs += compared_;
    stats.notes.push_back("result batches: " + std::to_string(launches_) + " (" + std::to_string(reruns_) +
                          " re-run after overflow)" +
                          (estimate_ >= 0 ? ", estimated " + std::to_string(std::uint64_t(estimate_)) + " pairs" : "") +
                          (overlap_ ? "" : ", serial (no copy/kernel overlap)"));
  }

 private:
  // Launches and buffers planned by the pairs per item seen (or estimated).
  void fit_span() {
    if (!with_pairs_ || density_ <= 0) return;
    const std::uint64_t limit = std::max(budget_, target_);
    span_ = std::max<std::uint64_t>(1, std::min(span_, std::uint64_t(double(limit) * kFill / density_)));
    target_ = std::max(target_, std::min(limit, std::uint64_t(density_ * double(span_) / kFill) + 4096));
  }

  // The next launch's items: a launch to run again first, else the next span; false when none is left.
  bool take(Range& r) {
    if (!retry_.empty()) {
      r = retry_.front();
      retry_.pop_front();
      return true;
    }
    if (next_item_ >= items_.end) return false;
    r = {next_item_, std::min(items_.end, next_item_ + span_)};
    next_item_ = r.end;
    return true;
  }

  // Collects a finished launch: queues it again when it overflowed, else hands its pairs over and
  // sizes the next launches by its speed and its pairs per item.
  void finish(Slot& slot) {
    s_.cancel.wait(slot.stream, progress_);
    slot.busy = false;
    const unsigned long long found = slot.host_counters.data()[0];
    if (with_pairs_ && found > slot.limit) {
      run_again(slot.range, found);
      return;
    }
    ++launches_;
    compared_ += slot.host_counters.data()[1];
    deliver(slot, found);
    progress_.add(double(slot.range.size()));
    size_next_launches(slot, found);
  }

  // An overflowed launch: one item alone runs again with the buffers grown to its pairs; more items
  // run again in parts that fit.
  void run_again(Range r, unsigned long long found) {
    ++reruns_;
    if (r.size() == 1) {
      target_ = std::max<std::uint64_t>(target_, found);
      retry_.push_front(r);
      return;
    }
    target_ = std::max(target_, std::min(budget_, std::uint64_t(double(found) / kFill) + 4096));
    const std::uint64_t parts = std::min<std::uint64_t>(r.size(), found / target_ + 1 + (found > target_));
    for (std::uint64_t p = parts; p-- > 0;)
      retry_.push_front({r.begin + r.size() * p / parts, r.begin + r.size() * (p + 1) / parts});
  }

  // The launch's pairs to the sink (or its count), timing the copy and the sink's handling.
  void deliver(Slot& slot, unsigned long long found) {
    if (!with_pairs_) {
      sink_.add_count(found);
      return;
    }
    SIMJOIN_CUDA_CHECK(cudaEventRecord(slot.copy_start, slot.stream));
    slot.pairs.download(slot.host_pairs.data(), found, slot.stream);
    SIMJOIN_CUDA_CHECK(cudaEventRecord(slot.copy_end, slot.stream));
    SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(slot.stream));
    transfer_seconds_ += elapsed_seconds(slot.copy_start, slot.copy_end);
    const auto delivery_start = std::chrono::steady_clock::now();
    sink_.add(std::span<const Pair>(slot.host_pairs.data(), found));
    delivery_seconds_ += seconds_since(delivery_start);
  }

  // Launches last about kLaunchSeconds (ten times that where the kernel reads the cancel flag),
  // growing at most kMaxGrowth-fold from one to the next.
  void size_next_launches(const Slot& slot, unsigned long long found) {
    const Range r = slot.range;
    const double seconds = elapsed_seconds(slot.kernel_start, slot.kernel_end);
    const double launch_seconds = plan_.reads_cancel ? 10 * kLaunchSeconds : kLaunchSeconds;
    const double growth = seconds > 0 ? std::min(kMaxGrowth, launch_seconds / seconds) : kMaxGrowth;
    span_ = std::max(wave_, std::uint64_t(double(r.size()) * growth));
    density_ = double(found) / double(r.size());
    fit_span();
  }

  PairSlots& s_;
  PairSink& sink_;
  const BatchPlan& plan_;
  const LaunchItems& launch_;
  SharedProgress& progress_;
  const Range items_;
  const std::uint64_t budget_;
  const bool chosen_, with_pairs_, overlap_;
  const std::uint64_t wave_;
  std::uint64_t span_;    // items of the next launch
  std::uint64_t target_;  // pairs each slot's buffer should hold (it never shrinks)
  std::uint64_t next_item_;
  double density_ = -1;      // pairs per item, once seen or estimated
  double estimate_ = -1;     // pairs of the whole range, estimated
  std::deque<Range> retry_;  // launches to run again after an overflow, split or with larger buffers
  std::size_t launches_ = 0, reruns_ = 0;
  double transfer_seconds_ = 0, delivery_seconds_ = 0;
  unsigned long long compared_ = 0;
};
}  // namespace

PairBatches::PairBatches(GpuResources& resources, PairSink& sink, const JoinParams& params)
    : pool_(resources.pair_slots),
      sink_(sink),
      chosen_(params.batch_bytes != 0),
      budget_(std::max<std::uint64_t>(
          1, (params.batch_bytes ? params.batch_bytes : kDefaultBatchBytes) / 2 / sizeof(Pair))) {
  int device = 0;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  slots_ = pool_->acquire(device, [](int owner) {
    auto slots = std::make_unique<PairSlots>();
    slots->device = owner;
    return slots;
  });
}

PairBatches::~PairBatches() {
  slots_->settle();
  const int device = slots_->device;
  pool_->release(device, std::move(slots_));
}

void PairBatches::run(std::uint64_t items, const BatchPlan& plan, const LaunchItems& launch, RunControl& control,
                      RunStats& stats) {
  SharedProgress progress(control, double(items));
  run(0, items, plan, launch, progress, stats);
}

void PairBatches::run(std::uint64_t first_item, std::uint64_t last_item, const BatchPlan& plan,
                      const LaunchItems& launch, SharedProgress& progress, RunStats& stats) {
  if (first_item >= last_item) return;
  PairSlots& s = *slots_;
  struct SettleOnExit {
    PairSlots& slots;
    ~SettleOnExit() { slots.settle(); }
  } settle_on_exit{s};
  s.cancel.lower();  // the last settle() raised it, and left no kernel running
  // What the engine enqueued on the default stream (upload, build) is done before the slots' streams,
  // which do not wait for it, read it.
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  BatchRun batches(s, sink_, plan, launch, progress, {first_item, last_item}, budget_, chosen_);
  if (plan.estimate) batches.estimate(stats);
  const auto start = std::chrono::steady_clock::now();
  progress.control().set_phase("join");
  batches.launch_all();
  batches.record(stats, seconds_since(start));
}

}  // namespace simjoin::gpu
