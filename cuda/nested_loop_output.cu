#include "cuda/nested_loop_output.hpp"

#include <algorithm>

namespace simjoin::gpu {

namespace {
constexpr std::uint64_t kDefaultBatchBytes = 64ull << 20;
// Launches are sized to take about this long, so that a cancel is seen within it (plus the
// hand-over of one launch's pairs); the host round trip between launches costs well under 1% of it.
constexpr double kLaunchSeconds = 0.02;
constexpr double kMaxGrowth = 4;  // per launch, while the first small launches find the speed
}  // namespace

BatchedPairOutput::BatchedPairOutput(PairSink& sink, const JoinParams& params, std::uint64_t wave,
                                     cudaStream_t stream)
    : sink_(sink), stream_(stream), wave_(std::max<std::uint64_t>(1, wave)), count_(1, "pair counter") {
  if (sink.wants_pairs()) {
    capacity_ = std::max<std::uint64_t>(1, (params.batch_bytes ? params.batch_bytes : kDefaultBatchBytes) / sizeof(Pair));
    pairs_ = DeviceBuffer<Pair>(capacity_, "result pair buffer");
  }
}

void BatchedPairOutput::run(std::uint64_t total_items, const Launch& launch, RunControl& control,
                            RunStats& stats) {
  SharedProgress progress(control, double(total_items));
  run(0, total_items, launch, progress, stats);
}

void BatchedPairOutput::run(std::uint64_t first_item, std::uint64_t last_item, const Launch& launch,
                            SharedProgress& progress, RunStats& stats) {
  double join_seconds = 0, transfer_seconds = 0;
  // The first launch is small; later ones follow the measured speed (see kLaunchSeconds).
  std::uint64_t span = std::max(wave_, (last_item - first_item) / 1024);
  std::uint64_t first = first_item;
  while (first < last_item) {
    progress.throw_if_cancelled();
    const std::uint64_t last = std::min(last_item, first + span);
    const PairOutput out{pairs_.data(), count_.data(), capacity_, cancel_.flag()};
    unsigned long long found = 0;
    double seconds = 0;
    {
      EventTimer timer(stream_);
      SIMJOIN_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, sizeof(unsigned long long), stream_));
      launch(first, last, out);
      SIMJOIN_CUDA_CHECK_LAUNCH();
      timer.stop();
      cancel_.wait(stream_, progress);
      count_.download(&found, 1, stream_);
      seconds = timer.seconds();
      join_seconds += seconds;
      SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    if (sink_.wants_pairs() && found > capacity_) {
      if (last - first == 1) {
        // One item's pairs exceed the buffer: it grows to what that item needs (the counter ran on).
        capacity_ = found;
        pairs_ = DeviceBuffer<Pair>();  // freed first: the old and the new buffer are never held together
        pairs_ = DeviceBuffer<Pair>(capacity_, "result pair buffer");
        continue;
      }
      // Retry with as many items as should fit, judging by this launch's density.
      const double fit = double(capacity_) / double(found) * 0.9;
      span = std::max<std::uint64_t>(1, std::min<std::uint64_t>(last - first - 1,
                                                                std::uint64_t(double(last - first) * fit)));
      continue;
    }
    if (sink_.wants_pairs()) {
      if (host_.size() < found) host_.resize(found);
      EventTimer timer(stream_);
      pairs_.download(host_.data(), found, stream_);
      transfer_seconds += timer.seconds();
      sink_.add({host_.data(), std::size_t(found)});
    } else {
      sink_.add_count(found);
    }
    const std::uint64_t launched = last - first;
    progress.add(double(launched));
    first = last;
    const double growth = seconds > 0 ? std::min(kMaxGrowth, kLaunchSeconds / seconds) : kMaxGrowth;
    span = std::max(wave_, std::uint64_t(double(launched) * growth));
  }
  stats.add_phase("join", join_seconds);
  if (sink_.wants_pairs()) stats.add_phase("output transfer", transfer_seconds);
}

unsigned persistent_blocks(std::uint64_t items, int blocks_per_multiprocessor) {
  int device = 0, multiprocessors = 1;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  SIMJOIN_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(items, std::uint64_t(multiprocessors) * blocks_per_multiprocessor)));
}

std::uint64_t resident_blocks(const void* kernel, int threads, std::size_t shared_bytes) {
  int device = 0, multiprocessors = 1, per_multiprocessor = 1;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  SIMJOIN_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  SIMJOIN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, shared_bytes));
  return std::uint64_t(std::max(1, multiprocessors * per_multiprocessor));
}

}  // namespace simjoin::gpu
