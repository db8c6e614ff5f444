#include "cuda/index_batches.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <span>
#include <string>

namespace simjoin::gpu {

namespace {
constexpr std::uint64_t kDefaultBatchBytes = std::uint64_t(256) << 20;  // both slots together
constexpr int kMinBatches = 3;

struct Range {
  std::size_t begin, end;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

// One of two alternating batch buffers: its own stream, device result, pinned host copy.
struct ResultBatcher::Slot {
  cudaStream_t stream = nullptr;
  DeviceBuffer<Pair> pairs;
  DeviceBuffer<unsigned long long> counters;
  PinnedBuffer<Pair> host_pairs;
  PinnedBuffer<unsigned long long> host_counters;
  cudaEvent_t copy_start = nullptr, copy_end = nullptr;
  Range range{0, 0};
  bool busy = false;

  Slot() {
    SIMJOIN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    SIMJOIN_CUDA_CHECK(cudaEventCreate(&copy_start));
    SIMJOIN_CUDA_CHECK(cudaEventCreate(&copy_end));
    counters = DeviceBuffer<unsigned long long>(2, "batch counters");
    host_counters = PinnedBuffer<unsigned long long>(2, "batch counters");
  }
  ~Slot() {
    cudaStreamSynchronize(stream);
    cudaEventDestroy(copy_start);
    cudaEventDestroy(copy_end);
    cudaStreamDestroy(stream);
  }
  // capacity 0: count only.
  void launch(const LaunchBatch& launch_batch, Range r, std::uint64_t capacity, CancelFlag cancel) {
    range = r;
    SIMJOIN_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), stream));
    launch_batch(r.begin, r.end, {capacity ? pairs.data() : nullptr, capacity, counters.data(), cancel}, stream);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    counters.download(host_counters.data(), 2, stream);
    busy = true;
  }
};

// Streams on which the estimate's sample chunks run side by side: one chunk is a few blocks, far too
// few to fill the GPU, and chunks queued on one stream would run one after another.
struct ResultBatcher::SampleStreams {
  static constexpr int kCount = 8;
  cudaStream_t streams[kCount] = {};
  cudaEvent_t done[kCount] = {};
  cudaEvent_t start = nullptr;

  SampleStreams() {
    SIMJOIN_CUDA_CHECK(cudaEventCreateWithFlags(&start, cudaEventDisableTiming));
    for (int i = 0; i < kCount; ++i) {
      SIMJOIN_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
      SIMJOIN_CUDA_CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
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

ResultBatcher::ResultBatcher() = default;
ResultBatcher::~ResultBatcher() = default;

void ResultBatcher::settle() noexcept {
  cancel_.raise();
  if (slots_)
    for (int s = 0; s < 2; ++s) {
      cudaStreamSynchronize(slots_[s].stream);
      slots_[s].busy = false;
    }
  if (sample_streams_)
    for (cudaStream_t stream : sample_streams_->streams) cudaStreamSynchronize(stream);
}

void ResultBatcher::reserve(std::uint64_t capacity) {
  if (!slots_) slots_ = std::make_unique<Slot[]>(2);
  if (capacity <= capacity_) return;  // buffers are kept between runs: pinned allocation is slow
  for (int s = 0; s < 2; ++s) {
    slots_[s].pairs = DeviceBuffer<Pair>();
    slots_[s].host_pairs = PinnedBuffer<Pair>();
    slots_[s].pairs = DeviceBuffer<Pair>(capacity, "result batch");
    slots_[s].host_pairs = PinnedBuffer<Pair>(capacity, "result batch");
  }
  capacity_ = capacity;
}

// Count-only joins of 16 evenly spaced chunks, about 1% of the queries, run side by side on the
// sample streams; their pairs per query, times the queries.
double ResultBatcher::estimate_pairs(std::size_t queries, const LaunchBatch& launch, const SharedProgress& progress) {
  if (!sample_streams_) sample_streams_ = std::make_unique<SampleStreams>();
  SampleStreams& side = *sample_streams_;
  const std::size_t chunks = std::min<std::size_t>(16, queries);
  const std::size_t chunk = std::max<std::size_t>(1, queries / (chunks * 100));
  Slot& sampler = slots_[0];
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(sampler.counters.data(), 0, 2 * sizeof(unsigned long long), sampler.stream));
  SIMJOIN_CUDA_CHECK(cudaEventRecord(side.start, sampler.stream));
  const int used = int(std::min<std::size_t>(chunks, SampleStreams::kCount));
  for (int i = 0; i < used; ++i) SIMJOIN_CUDA_CHECK(cudaStreamWaitEvent(side.streams[i], side.start));
  unsigned long long sampled_queries = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = c * (queries / chunks);
    const std::size_t end = std::min(queries, begin + chunk);
    launch(begin, end, {nullptr, 0, sampler.counters.data(), cancel_.flag()}, side.streams[c % SampleStreams::kCount]);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    sampled_queries += end - begin;
  }
  for (int i = 0; i < used; ++i) {
    SIMJOIN_CUDA_CHECK(cudaEventRecord(side.done[i], side.streams[i]));
    SIMJOIN_CUDA_CHECK(cudaStreamWaitEvent(sampler.stream, side.done[i]));
  }
  sampler.counters.download(sampler.host_counters.data(), 2, sampler.stream);
  cancel_.wait(sampler.stream, progress);
  return double(sampler.host_counters.data()[0]) * double(queries) / double(sampled_queries);
}

void ResultBatcher::run(std::size_t queries, std::uint64_t max_pairs_per_query, std::uint64_t batch_bytes,
                        PairSink& sink, RunControl& control, const LaunchBatch& launch, RunStats& stats) {
  SharedProgress progress(control, double(queries));
  run(queries, max_pairs_per_query, batch_bytes, sink, progress, launch, stats);
}

void ResultBatcher::run(std::size_t queries, std::uint64_t max_pairs_per_query, std::uint64_t batch_bytes,
                        PairSink& sink, SharedProgress& progress, const LaunchBatch& launch, RunStats& stats) {
  std::lock_guard lock(mutex_);
  if (queries == 0) return;
  struct SettleOnExit {
    ResultBatcher& batcher;
    ~SettleOnExit() { batcher.settle(); }
  } settle_on_exit{*this};
  const bool with_pairs = sink.wants_pairs();
  const bool overlap = !std::getenv("SIMJOIN_GPU_SERIAL_BATCHES");
  if (!slots_) slots_ = std::make_unique<Slot[]>(2);
  cancel_.lower();  // the last run's settle() raised it, and left no kernel running

  auto start = std::chrono::steady_clock::now();
  const double estimate = estimate_pairs(queries, launch, progress);
  stats.add_phase("estimate", seconds_since(start));

  // Batch count and capacity: at least three batches, each slot holding a third of the estimate with
  // margin, within batch_bytes, and never below one query's worst case.
  const std::uint64_t budget = (batch_bytes ? batch_bytes : kDefaultBatchBytes) / 2 / sizeof(Pair);
  std::uint64_t capacity = std::max<std::uint64_t>(budget, 1);
  if (capacity < max_pairs_per_query) {
    capacity = max_pairs_per_query;
    stats.notes.push_back("batch memory raised to hold one query's largest possible result");
  }
  const std::size_t batches = std::min<std::size_t>(
      queries, std::max<std::size_t>(kMinBatches, std::size_t(std::ceil(estimate * 1.2 / double(capacity)))));
  capacity = std::min<std::uint64_t>(capacity, std::max<std::uint64_t>(
      max_pairs_per_query, std::uint64_t(estimate * 1.25 / double(batches)) + 4096));
  // Buffers may be larger (kept from an earlier run); batches still hold only `capacity` pairs.
  if (with_pairs) reserve(capacity);

  std::deque<Range> work;
  for (std::size_t b = 0; b < batches; ++b) work.push_back({queries * b / batches, queries * (b + 1) / batches});

  start = std::chrono::steady_clock::now();
  progress.control().set_phase("join");
  std::size_t reruns = 0, batches_run = 0;
  double transfer_seconds = 0, delivery_seconds = 0;
  unsigned long long compared = 0;
  // Collects a finished batch: re-queues it split when it overflowed, else copies its pairs out.
  auto finish = [&](Slot& slot) {
    cancel_.wait(slot.stream, progress);
    slot.busy = false;
    const unsigned long long found = slot.host_counters.data()[0];
    if (with_pairs && found > capacity) {
      const std::size_t size = slot.range.end - slot.range.begin;
      const std::size_t parts = std::min<std::size_t>(size, found / capacity + 2);
      for (std::size_t p = parts; p-- > 0;)
        work.push_front({slot.range.begin + size * p / parts, slot.range.begin + size * (p + 1) / parts});
      ++reruns;
      return;
    }
    compared += slot.host_counters.data()[1];
    ++batches_run;
    if (with_pairs) {
      SIMJOIN_CUDA_CHECK(cudaEventRecord(slot.copy_start, slot.stream));
      slot.pairs.download(slot.host_pairs.data(), found, slot.stream);
      SIMJOIN_CUDA_CHECK(cudaEventRecord(slot.copy_end, slot.stream));
      SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(slot.stream));
      float ms = 0;
      SIMJOIN_CUDA_CHECK(cudaEventElapsedTime(&ms, slot.copy_start, slot.copy_end));
      transfer_seconds += ms / 1000.0;
      const auto delivery_start = std::chrono::steady_clock::now();
      sink.add(std::span<const Pair>(slot.host_pairs.data(), found));
      delivery_seconds += seconds_since(delivery_start);
    } else {
      sink.add_count(found);
    }
    progress.add(double(slot.range.end - slot.range.begin));
  };

  int next = 0;
  while (!work.empty() || slots_[0].busy || slots_[1].busy) {
    progress.throw_if_cancelled();
    if (work.empty()) {
      finish(slots_[slots_[next].busy ? next : 1 - next]);
      continue;
    }
    Slot& slot = slots_[next];
    if (slot.busy) finish(slot);
    if (work.empty()) continue;
    slot.launch(launch, work.front(), with_pairs ? capacity : 0, cancel_.flag());
    work.pop_front();
    if (!overlap) finish(slot);
    next = 1 - next;
    // The older batch's copy and the host's handling of its pairs overlap the kernel just launched.
    if (slots_[next].busy) finish(slots_[next]);
  }
  stats.add_phase("join", seconds_since(start));
  if (with_pairs) {
    stats.add_phase("output transfer", transfer_seconds);
    stats.add_phase("sink delivery", delivery_seconds);  // host time handing pairs to the sink
  }
  stats.compared_pairs += compared;
  stats.notes.push_back("result batches: " + std::to_string(batches_run) + " (" + std::to_string(reruns) +
                        " re-run split after overflow), estimated " +
                        std::to_string(std::uint64_t(estimate)) + " pairs" +
                        (overlap ? "" : ", serial (no copy/kernel overlap)"));
}

ResultBatcher& ResultBatchers::on(int device) {
  std::lock_guard lock(mutex_);
  auto& batcher = batchers_[device];
  if (!batcher) batcher = std::make_unique<ResultBatcher>();
  return *batcher;
}

}  // namespace simjoin::gpu
