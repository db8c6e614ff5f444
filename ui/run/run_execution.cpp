#include "ui/run/run_execution.hpp"

#include "core/error.hpp"
#include "ui/run/kept_pairs_sink.hpp"

namespace simjoin::ui {

RunRecord execute_run(const EngineRegistry& registry, const RunRequest& request,
                      RunControl& control, std::uint64_t id) {
  if (!request.a) fail(ErrorKind::Usage, "no input points loaded");
  Engine& engine = registry.get(request.engine);
  KeptPairsSink sink(request.keep_pairs_limit);
  RunRecord record;
  record.id = id;
  record.request = request;
  record.result = run_engine(engine, request.inputs(), request.params, sink, control);
  record.pairs = sink.take_sorted();
  return record;
}

}  // namespace simjoin::ui
