#include "app/python/join.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <variant>

#include "app/python/array_points.hpp"
#include "app/python/engines.hpp"
#include "app/python/interruptible_run.hpp"
#include "app/python/neighbor_graph.hpp"
#include "app/python/owning_array.hpp"
#include "app/python/pair_rows.hpp"
#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"

namespace py = pybind11;

namespace simjoin::python {

namespace {
// A vector handed over as a HostArray of Value (for the small row offsets, which fit Value).
template <typename Value, typename From>
HostArray<Value> host_array(const std::vector<From>& values) {
  HostArray<Value> array(values.size());
  std::transform(values.begin(), values.end(), array.begin(), [](From value) { return Value(value); });
  return array;
}

// The graph's (data, indices, indptr), the indices and offsets of the graph's index type.
template <typename Index>
py::tuple csr_arrays(NeighborGraph<Index>& graph) {
  const auto rows = py::ssize_t(graph.indptr.size()), entries = py::ssize_t(graph.indices.size());
  return py::make_tuple(owning_array<double>(std::move(graph.data), {entries}),
                        owning_array<Index>(std::move(graph.indices), {entries}),
                        owning_array<Index>(host_array<Index>(graph.indptr), {rows}));
}
}  // namespace

py::tuple join_arrays(const py::array& x, const std::optional<py::array>& y, const JoinRequest& request) {
  const bool count_only = request.output == "count";
  const bool graph = request.output == "connectivity" || request.output == "distance";
  if (!count_only && !graph && request.output != "pairs")
    fail(ErrorKind::Internal, "unknown join output '" + request.output + "'");
  const std::shared_ptr<const EngineRegistry> registry = every_engine();  // kept until the join returns
  Engine& engine = registry->get(request.engine);
  const PointSet a = points_from_array(x, "X");
  const std::optional<PointSet> b = y ? std::optional(points_from_array(*y, "Y")) : std::nullopt;
  const JoinSources sources{&a, b ? &*b : nullptr};
  JoinParams params;
  params.eps = request.eps;
  params.k = request.k;
  params.devices = request.devices;
  params.structures = false;  // the module returns pairs and stats, no view

  CountSink count;
  // On the heap: the pairs a cancelled run had not yet placed (up to gigabytes) are freed on a thread
  // of their own, as its sorted pairs and graph are, rather than before the caller sees the cancel.
  auto pairs = std::make_unique<PairListSink>();
  AnyNeighborGraph neighbors;
  HostArray<Pair> sorted;
  PairSink& sink = count_only ? static_cast<PairSink&>(count) : *pairs;
  std::optional<RunResult> run;
  try {
    run = run_interruptibly(
        [&](RunControl& control) {
          RunResult result = run_engine(engine, sources, params, sink, control);
          if (graph) {
            const GraphLayout layout{request.output == "distance", request.include_self};
            neighbors = neighbor_graph(*pairs, sources, layout, control);
          } else if (!count_only) {
            sorted = sorted_by_row(*pairs, a.size(), control);
          }
          return result;
        },
        request.progress);
  } catch (...) {
    delete_in_background(std::move(pairs));
    throw;
  }

  if (count_only) return py::make_tuple(run->stats.pairs, run->stats);
  if (graph) return py::make_tuple(std::visit([](auto& arrays) { return csr_arrays(arrays); }, neighbors), run->stats);
  static_assert(sizeof(Pair) == 2 * sizeof(std::uint32_t));
  const auto m = py::ssize_t(sorted.size());
  return py::make_tuple(owning_array<std::uint32_t>(std::move(sorted), {m, 2}), run->stats);
}

}  // namespace simjoin::python
