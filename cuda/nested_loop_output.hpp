#pragma once
// Host side of the pair output: runs a kernel over work items [0, total) in launches of about 20 ms
// each (sized by the measured speed, so a cancel is seen promptly), each into a device buffer of
// params.batch_bytes, and hands every launch's pairs to the sink. A launch whose pairs overflow the
// buffer is discarded and run again over fewer items; a single item that overflows it grows the buffer
// to what that item produced. So the buffer follows the result, not the worst case, results of any size
// complete, and no pair is lost or delivered twice. Count-only sinks get counts and no pairs are ever
// written. A launch longer than that (one wave of blocks that each compare with all n points) is
// stopped inside by the cancel flag it gets in PairOutput.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "core/engine.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_cancel.hpp"
#include "cuda/nested_loop_output.cuh"

namespace simjoin::gpu {

class BatchedPairOutput {
 public:
  // `wave`: work items that run at once (resident blocks, for a kernel of one block per item). No
  // launch is smaller, since a smaller one takes as long.
  BatchedPairOutput(PairSink& sink, const JoinParams& params, std::uint64_t wave = 1, cudaStream_t stream = 0);

  using Launch = std::function<void(std::uint64_t first, std::uint64_t last, const PairOutput& out)>;
  // Calls launch(first, last, out) on ranges covering [0, total); adds the phases "join" and
  // "output transfer" to stats.
  void run(std::uint64_t total_items, const Launch& launch, RunControl& control, RunStats& stats);
  // The same over [first_item, last_item), one share of a run split across GPUs; the finished items
  // are added to `progress`.
  void run(std::uint64_t first_item, std::uint64_t last_item, const Launch& launch, SharedProgress& progress,
           RunStats& stats);

 private:
  PairSink& sink_;
  cudaStream_t stream_;
  std::uint64_t wave_;
  std::uint64_t capacity_ = 0;
  DeviceBuffer<Pair> pairs_;
  DeviceBuffer<unsigned long long> count_;
  std::vector<Pair> host_;
  DeviceCancel cancel_;
};

// Blocks for a persistent grid over `items` work items: enough to fill every multiprocessor.
unsigned persistent_blocks(std::uint64_t items, int blocks_per_multiprocessor);

// Blocks of `kernel` that the GPU runs at once, with `threads` threads and `shared_bytes` of dynamic
// shared memory each.
std::uint64_t resident_blocks(const void* kernel, int threads, std::size_t shared_bytes);

}  // namespace simjoin::gpu
