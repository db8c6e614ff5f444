#include "app/python/neighbor_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "app/python/pair_rows.hpp"
#include "core/base/memory.hpp"
#include "core/base/parallel.hpp"

namespace simjoin::python {

namespace {
double distance(const double* p, const double* q, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += (p[k] - q[k]) * (p[k] - q[k]);
  return std::sqrt(sum);
}

template <typename Index>
void sort_row_by_column(NeighborGraph<Index>& graph, std::int64_t begin, std::int64_t end) {
  std::sort(graph.indices.begin() + begin, graph.indices.begin() + end);
  std::fill(graph.data.begin() + begin, graph.data.begin() + end, 1.0);
}

template <typename Index>
void sort_row_by_distance(NeighborGraph<Index>& graph, std::int64_t begin, std::int64_t end, const PointSet& rows,
                          const PointSet& columns, std::size_t row) {
  struct Entry {
    double distance;
    Index column;
    auto operator<=>(const Entry&) const = default;
  };
  std::vector<Entry> entries;
  entries.reserve(std::size_t(end - begin));
  for (std::int64_t e = begin; e < end; ++e)
    entries.push_back(
        {distance(rows.point(row), columns.point(std::size_t(graph.indices[e])), rows.dims()), graph.indices[e]});
  std::sort(entries.begin(), entries.end());
  for (std::int64_t e = begin; e < end; ++e) {
    graph.data[e] = entries[e - begin].distance;
    graph.indices[e] = entries[e - begin].column;
  }
}
}  // namespace

namespace {
// Fills and sorts the graph's rows (indptr set, indices and data allocated).
template <typename Index>
void fill_rows(NeighborGraph<Index>& graph, PairListSink& pairs, const JoinSources& sources, GraphLayout layout,
               RunControl& control) {
  const bool self_join = sources.self_join();
  const std::size_t rows = sources.a->size();
  prefault(graph.indices.data(), graph.indices.size() * sizeof(Index), &control);
  std::vector<std::int64_t> next(graph.indptr.begin(), graph.indptr.end() - 1);
  if (self_join && layout.include_self)
    for (std::size_t row = 0; row < rows; ++row) graph.indices[std::size_t(next[row]++)] = Index(row);
  visit_checked(
      pairs, control,
      [&](std::span<const Pair> block) {
        for (const Pair& pair : block) {
          graph.indices[std::size_t(next[pair.i]++)] = Index(pair.j);
          if (self_join) graph.indices[std::size_t(next[pair.j]++)] = Index(pair.i);
        }
      },
      /*drain=*/true);
  const PointSet& columns = self_join ? *sources.a : *sources.b;
  for_row_ranges(graph.indptr, control, [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      const std::int64_t begin = graph.indptr[row], end = graph.indptr[row + 1];
      if (layout.distances)
        sort_row_by_distance(graph, begin, end, *sources.a, columns, row);
      else
        sort_row_by_column(graph, begin, end);
    }
  });
}
}  // namespace

namespace {
template <typename Index>
NeighborGraph<Index> filled_graph(std::vector<std::int64_t> indptr, PairListSink& pairs, const JoinSources& sources,
                                  GraphLayout layout, RunControl& control) {
  NeighborGraph<Index> graph;
  graph.indptr = std::move(indptr);
  graph.indices = HostArray<Index>(std::size_t(graph.indptr.back()));
  graph.data = HostArray<double>(graph.indices.size());
  try {
    fill_rows(graph, pairs, sources, layout, control);
  } catch (...) {
    free_in_background(graph.indices);
    free_in_background(graph.data);
    throw;
  }
  return graph;
}
}  // namespace

AnyNeighborGraph neighbor_graph(PairListSink& pairs, const JoinSources& sources, GraphLayout layout,
                                RunControl& control) {
  control.set_phase("neighbour graph");
  const bool diagonal = sources.self_join() && layout.include_self;
  std::vector<std::int64_t> indptr =
      row_offsets(pairs, sources.a->size(), sources.self_join(), diagonal ? 1 : 0, control);
  const std::size_t columns = sources.self_join() ? sources.a->size() : sources.b->size();
  constexpr auto kInt32Max = std::size_t(std::numeric_limits<std::int32_t>::max());
  if (std::size_t(indptr.back()) <= kInt32Max && std::max(sources.a->size(), columns) <= kInt32Max)
    return filled_graph<std::int32_t>(std::move(indptr), pairs, sources, layout, control);
  return filled_graph<std::int64_t>(std::move(indptr), pairs, sources, layout, control);
}

}  // namespace simjoin::python
