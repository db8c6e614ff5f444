#include "ui/run/run_execution.hpp"

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "ui/run/kept_pairs_sink.hpp"

namespace simjoin::ui {

RunResult run_into(const EngineRegistry& registry, const RunRequest& request, PairSink& sink, RunControl& control) {
  if (!request.a) fail(ErrorKind::Usage, "no input points loaded");
  return run_engine(registry.get(request.engine), request.inputs(), request.params, sink, control);
}

RunRecord execute_run(const EngineRegistry& registry, const RunRequest& request, RunControl& control,
                      std::uint64_t id) {
  KeptPairsSink sink(request.keep_pairs_limit);
  RunRecord record;
  record.id = id;
  record.request = request;
  record.result = run_into(registry, request, sink, control);
  record.pairs = sink.take_sorted();
  return record;
}

}  // namespace simjoin::ui
