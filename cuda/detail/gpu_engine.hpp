#pragma once
// The base of every GPU engine: availability from the CUDA runtime, the GPU capability flags, and the
// steps every run shares (its GPUs, the device label, empty input, the upload of the points and of the
// file's values), so that an engine supplies only its build and launches.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "cuda/detail/device_points.hpp"
#include "cuda/detail/exact_device.hpp"
#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

// One run of a GPU engine: its inputs, the GPUs it runs on (the first is current) and its result.
struct GpuRun {
  const JoinInputs& inputs;
  const JoinParams& params;
  PairSink& sink;
  RunControl& control;
  GpuResources& resources;  // the engine's pinned buffers and streams, reused from run to run
  std::vector<int> devices;
  RunResult result;

  bool self() const { return inputs.self_join(); }
  RunStats& stats() { return result.stats; }
};

// One phase of a run: names it to the control on entry (where one is given; shares on other threads
// give none) and adds its duration to the stats at end() or on leaving its scope, the default
// stream's GPU work included.
class Phase {
 public:
  Phase(RunStats& stats, std::string name, RunControl* control = nullptr);
  Phase(GpuRun& run, std::string name) : Phase(run.stats(), std::move(name), &run.control) {}
  ~Phase() { end(); }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
  void end() noexcept;

 private:
  RunStats& stats_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  bool ended_ = false;
};

// A and, for A join B, the queries on the current GPU, with the file's values for the exact test.
struct DeviceInputs {
  DevicePoints a, b;  // b empty for a self-join
  DeviceExact exact;
  const DevicePoints& queries() const { return b.n ? b : a; }
};

// Uploads the points of `inputs`, rows padded to a multiple of `row_multiple` floats, as the phase
// "upload" (named to `control` where given).
DeviceInputs upload_inputs(GpuResources& resources, const JoinInputs& inputs, std::size_t row_multiple, RunStats& stats,
                           RunControl* control = nullptr);

class GpuEngine : public Engine {
 public:
  // Runs on `resources`, which the composition root gives every GPU engine of a registry (one handle,
  // so that they share their pinned buffers and streams).
  explicit GpuEngine(std::shared_ptr<GpuResources> resources);
  Availability availability() const override;
  Capabilities capabilities() const override;
  // Makes the run's first GPU current, names its GPUs in the stats, returns at once when a set is
  // empty, else joins. Engines hold no state between runs.
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) final;

 protected:
  // True for engines that split one join across GPUs: every GPU present unless params.devices names
  // some. The others run on the first GPU named (default 0).
  virtual bool splits_across_gpus() const { return false; }
  virtual void join(GpuRun& run) const = 0;

 private:
  std::shared_ptr<GpuResources> resources_;
};

}  // namespace simjoin::gpu
