#include "ui/lessons/recall_by_k.hpp"

#include "core/run/run_engine.hpp"

namespace simjoin::ui {

std::uint64_t count_pairs(const char* engine, const PointSet& points, double eps, int k) {
  EngineRegistry registry;
  register_cpu_engines(registry);
  JoinParams params;
  params.eps = eps;
  params.k = k;
  CountSink sink;
  RunControl control;
  run_engine(registry.get(engine), {&points, nullptr}, params, sink, control);
  return sink.count();
}

std::vector<RecallAtK> recall_by_k(const PointSet& points, double eps, const std::vector<int>& ks) {
  const std::uint64_t exact = count_pairs("cpu-grid", points, eps);
  std::vector<RecallAtK> table;
  for (int k : ks) table.push_back({k, count_pairs("cpu-kmeans-approx", points, eps, k), exact});
  return table;
}

}  // namespace simjoin::ui
