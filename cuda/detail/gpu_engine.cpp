#include "cuda/detail/gpu_engine.hpp"

#include <cuda_runtime.h>

#include "core/base/error.hpp"
#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/multi_device.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin::gpu {

Phase::Phase(RunStats& stats, std::string name, RunControl* control)
    : stats_(stats), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
  if (control) control->set_phase(name_);
}

void Phase::end() noexcept {
  if (ended_) return;
  ended_ = true;
  cudaStreamSynchronize(0);  // an error here is reported by the next checked call
  try {
    stats_.add_phase(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  } catch (...) {  // out of memory for a phase name: the timing is lost, not the run
  }
}

DeviceInputs upload_inputs(GpuResources& resources, const JoinInputs& inputs, std::size_t row_multiple, RunStats& stats,
                           RunControl* control) {
  Phase phase(stats, "upload", control);
  DeviceInputs device;
  device.a = upload_points(resources, *inputs.a, row_multiple);
  if (!inputs.self_join()) device.b = upload_points(resources, *inputs.b, row_multiple);
  device.exact = upload_exact(resources, inputs);
  return device;
}

GpuEngine::GpuEngine(std::shared_ptr<GpuResources> resources) : resources_(std::move(resources)) {
  if (!resources_) fail(ErrorKind::Internal, "a GPU engine was made without its GPU resources");
}

Availability GpuEngine::availability() const {
  const GpuStatus& status = listed_gpus();
  return {status.available, status.reason};
}

Capabilities GpuEngine::capabilities() const {
  Capabilities caps;
  caps.gpu = true;
  return caps;
}

RunResult GpuEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) {
  GpuRun run{inputs, params, sink, control, *resources_, select_devices(params, splits_across_gpus()), {}};
  run.stats().device = device_label(run.devices);
  if (inputs.a->empty() || inputs.queries().empty()) return run.result;
  join(run);
  return std::move(run.result);
}

}  // namespace simjoin::gpu
