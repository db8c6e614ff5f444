#pragma once
// Result batching shared by the index engines (gpu-grid, gpu-lss, gpu-boehm), after Gowanlock &
// Karsin: the result size is estimated on a sample of the queries, the queries are split into at least
// three batches, and each batch's kernel runs while the previous batch's pairs travel to pinned host
// memory on the other stream. A batch whose buffer overflows is re-run split, so no pair is lost and
// results larger than GPU memory complete.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "core/engine.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_cancel.hpp"

namespace simjoin::gpu {

// Where a join kernel writes one batch. counters[0] counts every pair found, also past capacity (then
// the batch is re-run); counters[1] counts distance tests. pairs is null when only counts are wanted.
// A kernel may stop early once `cancel` is raised: the run is then cancelled and its batch discarded.
struct BatchOutput {
  Pair* pairs = nullptr;
  std::uint64_t capacity = 0;
  unsigned long long* counters = nullptr;
  CancelFlag cancel;
};

// Enqueues the join of queries [begin, end) on `stream`; the kernel only adds to the counters.
using LaunchBatch =
    std::function<void(std::size_t begin, std::size_t end, const BatchOutput& out, cudaStream_t stream)>;

class ResultBatcher {
 public:
  ResultBatcher();
  ResultBatcher(const ResultBatcher&) = delete;
  ResultBatcher& operator=(const ResultBatcher&) = delete;
  ~ResultBatcher();

  // Runs `launch` over `queries` queries in batches, delivering pairs to `sink` (or counts, for a
  // count-only sink). max_pairs_per_query bounds one query's result, so a batch of one query always
  // fits. Adds the phases "estimate", "join" (all batches, wall time), "output transfer" and "sink
  // delivery" (parts of the join), compared_pairs and notes to stats.
  // Set SIMJOIN_GPU_SERIAL_BATCHES=1 to run the batches on one stream without overlap (for measuring
  // the overlap's gain).
  void run(std::size_t queries, std::uint64_t max_pairs_per_query, std::uint64_t batch_bytes,
           PairSink& sink, RunControl& control, const LaunchBatch& launch, RunStats& stats);
  // The same for one share of a run split across GPUs: the finished queries are added to `progress`.
  void run(std::size_t queries, std::uint64_t max_pairs_per_query, std::uint64_t batch_bytes,
           PairSink& sink, SharedProgress& progress, const LaunchBatch& launch, RunStats& stats);

 private:
  struct Slot;
  struct SampleStreams;
  void reserve(std::uint64_t capacity);
  double estimate_pairs(std::size_t queries, const LaunchBatch& launch, const SharedProgress& progress);
  // Stops what still runs (raises the cancel flag), waits for every stream and marks both slots free:
  // a run left by an exception (cancellation, failure) must not hand its batches to the next run.
  void settle() noexcept;
  std::mutex mutex_;  // one run at a time owns the buffers
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<SampleStreams> sample_streams_;
  std::uint64_t capacity_ = 0;
  DeviceCancel cancel_;
};

// One ResultBatcher per GPU ordinal (its streams and buffers belong to that GPU), made on first use.
class ResultBatchers {
 public:
  ResultBatcher& on(int device);

 private:
  std::mutex mutex_;
  std::map<int, std::unique_ptr<ResultBatcher>> batchers_;
};

}  // namespace simjoin::gpu
