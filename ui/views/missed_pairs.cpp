#include "ui/views/missed_pairs.hpp"

#include "core/run/run_engine.hpp"

namespace simjoin::ui {

MissedPairs missed_pairs(const PointSet& points, const PartitionStructure& partitions, double eps) {
  EngineRegistry registry;
  register_cpu_engines(registry);
  JoinParams params;
  params.eps = eps;
  PairListSink sink;
  RunControl control;
  run_engine(registry.get("cpu-grid"), {&points, nullptr}, params, sink, control);
  MissedPairs result;
  result.exact = sink.count();
  for (const Pair& pair : sink.sorted_pairs())
    if (partitions.membership[pair.i] != partitions.membership[pair.j]) result.missed.push_back(pair);
  return result;
}

}  // namespace simjoin::ui
