#include "cuda/nested_loop_output.hpp"

#include <algorithm>

namespace simjoin::gpu {

namespace {
constexpr std::uint64_t kDefaultBatchBytes = 64ull << 20;
constexpr std::uint64_t kLaunchesPerRun = 8;  // for progress reports and cancellation between launches
}  // namespace

BatchedPairOutput::BatchedPairOutput(PairSink& sink, const JoinParams& params,
                                     std::uint64_t max_pairs_per_item, cudaStream_t stream)
    : sink_(sink), stream_(stream), count_(1, "pair counter") {
  if (sink.wants_pairs()) {
    const std::uint64_t batch_bytes = params.batch_bytes ? params.batch_bytes : kDefaultBatchBytes;
    capacity_ = std::max<std::uint64_t>(batch_bytes / sizeof(Pair), max_pairs_per_item);
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
  const PairOutput out{pairs_.data(), count_.data(), capacity_};
  const std::uint64_t items = last_item - first_item;
  std::uint64_t span = std::max<std::uint64_t>(1, (items + kLaunchesPerRun - 1) / kLaunchesPerRun);
  std::uint64_t first = first_item;
  while (first < last_item) {
    progress.throw_if_cancelled();
    const std::uint64_t last = std::min(last_item, first + span);
    unsigned long long found = 0;
    {
      EventTimer timer(stream_);
      SIMJOIN_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, sizeof(unsigned long long), stream_));
      launch(first, last, out);
      SIMJOIN_CUDA_CHECK_LAUNCH();
      timer.stop();
      count_.download(&found, 1, stream_);
      join_seconds += timer.seconds();
      SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    if (sink_.wants_pairs() && found > capacity_) {
      if (last - first == 1) fail(ErrorKind::Internal, "one work item produced more pairs than its bound");
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
    progress.add(double(last - first));
    first = last;
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

}  // namespace simjoin::gpu
