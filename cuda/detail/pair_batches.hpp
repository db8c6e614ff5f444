#pragma once
// Host side of the one pair output of every GPU engine (device side: pair_output.cuh), after Gowanlock
// & Karsin's result batching. A join is a range of work items (a query, a block of queries, a pair of
// tiles); launches over parts of it alternate between two slots, each with its own stream, device
// buffer and pinned host buffer, so that one launch's kernel runs while the previous launch's pairs
// travel to the host and into the sink.
// - Launches take about 20 ms each (sized by the measured speed), so a cancel is seen promptly, or
//   200 ms for kernels that read the cancel flag they get in PairOutput and stop inside a launch (also
//   one longer than that: a wave of blocks that each compare with all n points). No launch is smaller
//   than one wave of the GPU.
// - Buffers follow the result: they grow with the pairs per item seen (or estimated first, from a
//   count-only sample, for engines whose items are cheap to sample) up to 256 MiB, or take
//   params.batch_bytes where the caller sets it; a launch
//   that overflows is run again split, and an item alone that overflows grows the buffers to what it
//   produced. So results of any size complete, and no pair is lost or delivered twice.
// - Count-only sinks get counts; no pair is ever written.
// The slots, streams and buffers of a GPU are kept between runs in the GpuResources the run is given
// (pinned allocation is slow) and leased to one run at a time; a run that ends in any way leaves no
// launch behind.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "core/join/engine.hpp"
#include "cuda/detail/gpu_resources.hpp"
#include "cuda/detail/pair_output.cuh"

namespace simjoin::gpu {

// Enqueues the work items [first, last) on `stream`; the kernel only adds to out's counters.
using LaunchItems =
    std::function<void(std::uint64_t first, std::uint64_t last, const PairOutput& out, cudaStream_t stream)>;

struct BatchPlan {
  std::uint64_t wave = 1;  // items the GPU runs at once: no launch is smaller, since it would take as long
  // Estimate the pairs from a count-only sample of about 1% of the items before the first launch (for
  // items of one query each: a sampled item costs what it would in the join).
  bool estimate = false;
  // The kernel reads PairOutput::cancel and stops inside a launch: launches may then take ten times
  // longer, with fewer partly filled last waves.
  bool reads_cancel = false;
};

class PairBatches {
 public:
  // Leases the current GPU's slots from `resources` for this run.
  PairBatches(GpuResources& resources, PairSink& sink, const JoinParams& params);
  ~PairBatches();
  PairBatches(const PairBatches&) = delete;
  PairBatches& operator=(const PairBatches&) = delete;

  // Runs `launch` over the items [first, last), delivering pairs to the sink (or counts); adds the
  // finished items to `progress`, the phases "join" (wall time), "output transfer" and "sink delivery"
  // (host time handing pairs over, part of the join) and, with an estimate, "estimate", a note, and the
  // distance tests the kernels counted to stats.compared_pairs.
  void run(std::uint64_t first, std::uint64_t last, const BatchPlan& plan, const LaunchItems& launch,
           SharedProgress& progress, RunStats& stats);
  // The same over [0, items) of a run on one GPU.
  void run(std::uint64_t items, const BatchPlan& plan, const LaunchItems& launch, RunControl& control, RunStats& stats);

 private:
  std::shared_ptr<DevicePool<PairSlots>> pool_;
  PairSink& sink_;
  bool chosen_;           // params.batch_bytes was given
  std::uint64_t budget_;  // pairs a slot holds at most, but for one item that needs more
  std::unique_ptr<PairSlots> slots_;
};

}  // namespace simjoin::gpu
