// Built when no CUDA compiler was found: the program still runs, on the CPU engines.
#include "core/base/error.hpp"
#include "cuda/gpu_engines.hpp"
#include "cuda/rejoin.hpp"

namespace simjoin {

GpuStatus query_gpus() {
  GpuStatus status;
  status.reason = "this build has no CUDA support (no CUDA compiler was found at configure time)";
  return status;
}

std::shared_ptr<gpu::GpuResources> make_gpu_resources() { return nullptr; }

GpuEngines make_gpu_engines(const std::shared_ptr<gpu::GpuResources>&) { return {}; }

}  // namespace simjoin

// RE-JOIN runs on the GPU only.
namespace simjoin {

struct RejoinSession::State {};

RejoinSession::RejoinSession(double, std::uint64_t, int) {
  fail(ErrorKind::Unavailable, "RE-JOIN needs a GPU: this build has no CUDA support");
}
RejoinSession::~RejoinSession() = default;
RejoinBatch RejoinSession::initial(const PointSet&, double, int, RunControl*) { return {}; }
RejoinBatch RejoinSession::update(const PointSet&, RunControl*) { return {}; }
const std::vector<Pair>& RejoinSession::pairs() const {
  static const std::vector<Pair> none;
  return none;
}
std::size_t RejoinSession::size() const { return 0; }

}  // namespace simjoin
