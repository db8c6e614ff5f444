#pragma once
// Host side of the pair output: runs a kernel over work items [0, total) in launches, each into a
// bounded device buffer, and hands every launch's pairs to the sink. A launch whose pairs overflow the
// buffer is discarded and run again over fewer items, so results of any size complete and no pair is
// lost or delivered twice. Count-only sinks get counts and no pairs are ever written.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "core/engine.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/nested_loop_output.cuh"

namespace simjoin::gpu {

class BatchedPairOutput {
 public:
  // max_pairs_per_item bounds what one work item can produce; the buffer always holds at least that.
  BatchedPairOutput(PairSink& sink, const JoinParams& params, std::uint64_t max_pairs_per_item,
                    cudaStream_t stream = 0);

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
  std::uint64_t capacity_ = 0;
  DeviceBuffer<Pair> pairs_;
  DeviceBuffer<unsigned long long> count_;
  std::vector<Pair> host_;
};

// Blocks for a persistent grid over `items` work items: enough to fill every multiprocessor.
unsigned persistent_blocks(std::uint64_t items, int blocks_per_multiprocessor);

}  // namespace simjoin::gpu
