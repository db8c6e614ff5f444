#include "core/engines/cpu_kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/base/error.hpp"
#include "core/base/parallel.hpp"
#include "core/engines/cpu_nlj.hpp"
#include "core/engines/detail/grid_cost.hpp"
#include "core/engines/detail/grid_join.hpp"
#include "core/engines/kmeans_placement.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/points/kmeans.hpp"

// Why the partitions lose no pair: core/engines/kmeans_placement.cpp.

namespace simjoin {

namespace {
// Partitions holding each point (own and copies), highest first, as offsets into one array.
struct Memberships {
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> partitions;
  const std::uint32_t* begin(std::size_t p) const { return partitions.data() + offsets[p]; }
  const std::uint32_t* end(std::size_t p) const { return partitions.data() + offsets[p + 1]; }
};

Memberships memberships(const Placement& placement) {
  Memberships lists;
  std::size_t r = 0;
  for (std::size_t p = 0; p < placement.own.size(); ++p) {
    const std::size_t first = lists.partitions.size();
    lists.partitions.push_back(placement.own[p]);
    for (; r < placement.copy_point.size() && placement.copy_point[r] == p; ++r)
      lists.partitions.push_back(placement.copy_partition[r]);
    std::sort(lists.partitions.begin() + std::ptrdiff_t(first), lists.partitions.end(), std::greater<>());
    lists.offsets.push_back(lists.partitions.size());
  }
  return lists;
}

// Points and copies grouped by partition (counting sort).
struct Grouped {
  std::vector<std::uint64_t> start;  // k + 1 offsets
  std::vector<std::uint32_t> point;  // entry -> point id
  PointRows rows(const PointSet32& points, std::size_t c) const {
    return PointRows(points, point.data() + start[c], start[c + 1] - start[c]);
  }
};

Grouped group(const Placement& placement, std::size_t k) {
  Grouped grouped;
  grouped.start.assign(k + 1, 0);
  for (std::uint32_t c : placement.own) ++grouped.start[c + 1];
  for (std::uint32_t c : placement.copy_partition) ++grouped.start[c + 1];
  for (std::size_t c = 0; c < k; ++c) grouped.start[c + 1] += grouped.start[c];
  grouped.point.resize(grouped.start[k]);
  std::vector<std::uint64_t> next(grouped.start.begin(), grouped.start.end() - 1);
  for (std::size_t p = 0; p < placement.own.size(); ++p) grouped.point[next[placement.own[p]]++] = std::uint32_t(p);
  for (std::size_t r = 0; r < placement.copy_point.size(); ++r)
    grouped.point[next[placement.copy_partition[r]]++] = placement.copy_point[r];
  return grouped;
}

// The highest partition holding both points; both lists are sorted highest first.
std::uint32_t highest_common(const std::uint32_t* p, const std::uint32_t* p_end, const std::uint32_t* q,
                             const std::uint32_t* q_end) {
  while (p != p_end && q != q_end) {
    if (*p == *q) return *p;
    if (*p > *q)
      ++p;
    else
      ++q;
  }
  return UINT32_MAX;
}

// How many dimensions the partitions' grids index (each grid's cost model chose for its own points),
// e.g. "partition grids index 4 dimensions in 12 partitions, 5 in 8".
std::string indexed_dims_note(const std::vector<std::optional<GridJoin>>& grids) {
  std::vector<std::size_t> partitions(EpsilonGrid::kMaxIndexed + 1, 0);
  for (const auto& grid : grids) ++partitions[grid->grid().indexed()];
  std::string note = "partition grids index";
  for (std::size_t m = 0; m < partitions.size(); ++m) {
    if (partitions[m] == 0) continue;
    const bool first = note.back() == 'x';
    note += first ? " " : ", ";
    note += std::to_string(m);
    note += first ? " dimensions in " : " in ";
    note += std::to_string(partitions[m]);
    note += first ? " partitions" : "";
  }
  return note;
}

// The grid inside each partition does the pruning; partitions add copies along their borders. So a
// few large partitions: enough to build the grids in parallel and fit each to its region.
std::size_t choose_k(std::size_t requested, std::size_t n, std::vector<std::string>& notes) {
  const auto automatic = std::clamp<std::size_t>(std::size_t(std::lround(std::sqrt(double(n) / 2000.0))), 1, 256);
  return resolve_k(requested, n, automatic, "sqrt(n / 2000), at most 256", notes);
}

// The points of A (and B) placed in the partitions: grouped by partition for the grids, and each
// point's partitions for reporting a pair once.
struct PlacedPoints {
  Placement placed_a, placed_b;
  Grouped group_a, group_b;
  Memberships lists_a, lists_b;
  const Grouped& queries(bool self) const { return self ? group_a : group_b; }
  const Memberships& query_lists(bool self) const { return self ? lists_a : lists_b; }
};

PlacedPoints place_and_group(const JoinInputs& inputs, const KMeansResult& clusters, std::size_t k,
                             const JoinParams& params, bool replicate, RunStats& stats, RunControl& control) {
  const bool self = inputs.self_join();
  const int threads = thread_count(params.threads);
  PlacedPoints placed;
  {
    PhaseTimer timer(stats, "replicate");
    control.set_phase("replicate");
    placed.placed_a = place_points(*inputs.a, &clusters.membership, clusters.centroids, inputs.search_radius, replicate,
                                   threads, control);
    if (!self)
      placed.placed_b =
          place_points(*inputs.b, nullptr, clusters.centroids, inputs.search_radius, replicate, threads, control);
  }
  control.report(0.1);
  PhaseTimer timer(stats, "group");
  control.set_phase("group");
  placed.group_a = group(placed.placed_a, k);
  placed.lists_a = memberships(placed.placed_a);
  if (!self) {
    placed.group_b = group(placed.placed_b, k);
    placed.lists_b = memberships(placed.placed_b);
  }
  return placed;
}

// Each partition's entries of A (own and copies) are indexed by an epsilon-grid, which its entries
// of B (or of A again) query; the grids' tasks, tagged with their partition.
struct PartitionGrids {
  struct Task {
    std::uint32_t partition;
    GridTask task;
  };
  std::vector<std::optional<GridJoin>> grids;
  std::vector<Task> tasks;
};

PartitionGrids index_partitions(const JoinInputs& inputs, const PlacedPoints& placed, std::size_t k,
                                const JoinParams& params, RunStats& stats, RunControl& control) {
  const bool self = inputs.self_join();
  const Grouped& other = placed.queries(self);
  PartitionGrids indexed;
  indexed.grids.resize(k);
  PhaseTimer timer(stats, "index partitions");
  control.set_phase("index partitions");
  parallel_for_each(k, params.threads, control, [&](std::size_t c) {
    indexed.grids[c].emplace(placed.group_a.rows(*inputs.a, c), other.rows(inputs.queries(), c), self, inputs, params,
                             &control);
  });
  for (std::uint32_t c = 0; c < k; ++c)
    for (const GridTask& task : indexed.grids[c]->tasks()) indexed.tasks.push_back({c, task});
  return indexed;
}

void join_partitions(const JoinInputs& inputs, const PlacedPoints& placed, PartitionGrids& indexed,
                     const JoinParams& params, PairSink& sink, RunStats& stats, RunControl& control) {
  const bool self = inputs.self_join();
  const Grouped& group_a = placed.group_a;
  const Grouped& other = placed.queries(self);
  const Memberships& lists_a = placed.lists_a;
  const Memberships& other_lists = placed.query_lists(self);
  PhaseTimer timer(stats, "join");
  control.set_phase("join");
  // A pair is reported only from the highest partition holding both of its points.
  const ExactPairTest is_pair = inputs.pair_test();
  parallel_rows(
      indexed.tasks.size(), params.threads, control,
      [&](std::size_t t, PairBuffer& out) {
        const std::uint32_t c = indexed.tasks[t].partition;
        const std::uint32_t* points_a = group_a.point.data() + group_a.start[c];
        const std::uint32_t* points_q = other.point.data() + other.start[c];
        return indexed.grids[c]->run(indexed.tasks[t].task, [&](std::uint32_t row_q, std::uint32_t row_a, float d2) {
          const std::uint32_t p = points_a[row_a], q = points_q[row_q];
          if (!is_pair(d2, p, q)) return;
          if (highest_common(lists_a.begin(p), lists_a.end(p), other_lists.begin(q), other_lists.end(q)) != c) return;
          out.push(self ? std::min(p, q) : p, self ? std::max(p, q) : q);
        });
      },
      sink, stats.compared_pairs);
}

// The copies, the memory the partitions took beside the points, and the notes.
void note_partitions(const PlacedPoints& placed, const PartitionGrids& indexed, std::size_t k, int iterations,
                     bool self, RunStats& stats) {
  stats.k = int(k);
  stats.replicated_points = placed.placed_a.copy_point.size() + placed.placed_b.copy_point.size();
  std::uint64_t grid_bytes = 0;
  for (const auto& grid : indexed.grids) grid_bytes += grid->memory_bytes();
  stats.extra_bytes = grid_bytes + indexed.tasks.size() * sizeof(PartitionGrids::Task) +
                      (placed.group_a.point.size() + placed.group_b.point.size()) * sizeof(std::uint32_t) +
                      (placed.lists_a.partitions.size() + placed.lists_b.partitions.size()) * sizeof(std::uint32_t) +
                      (placed.lists_a.offsets.size() + placed.lists_b.offsets.size()) * sizeof(std::uint64_t);
  stats.notes.push_back(std::to_string(k) + " partitions after " + std::to_string(iterations) +
                        " k-means iterations; " + std::to_string(stats.replicated_points) + " copies");
  if (!self) stats.notes.push_back("copies counted for A and B together");
  if (!indexed.grids.empty()) stats.notes.push_back(indexed_dims_note(indexed.grids));
}

// Where the copies make the partitions hold more than this many times the whole set's pairs (data
// without separated clusters at a wide eps), the whole set is joined by the nested loop instead: the
// grids inside the partitions would meet each pair in many partitions, and in many dimensions prune
// little, where the nested loop compares each pair once, vectorised. Below it the grids' pruning
// inside each partition can still win (one partition holds exactly the whole set's pairs), which
// their cost models then estimate (grids_prune).
constexpr double kReplicationLimit = 4;

// The pairs partition c holds with its copies.
double partition_pairs(const PlacedPoints& placed, std::size_t c, bool self) {
  const Grouped& other = placed.queries(self);
  const double size_a = double(placed.group_a.start[c + 1] - placed.group_a.start[c]);
  const double size_q = double(other.start[c + 1] - other.start[c]);
  return self ? size_a * (size_a - 1) / 2 : size_a * size_q;
}

std::string fell_back(const char* why) {
  return std::string(why) + ": KMEANS-JOIN cannot prune this data at this eps, so the whole set was joined by the " +
         "nested loop (cpu-nlj)";
}

// The pairs the partitions hold, against the whole set's; a note where they cannot prune.
bool partitions_prune(const PlacedPoints& placed, std::size_t k, bool self, double whole, RunStats& stats) {
  double held = 0;
  for (std::size_t c = 0; c < k; ++c) held += partition_pairs(placed, c, self);
  stats.estimated_tests = std::uint64_t(held);
  if (held <= kReplicationLimit * whole) return true;
  char text[160];
  std::snprintf(text, sizeof text, "the partitions with their copies hold %.0f pairs, %d times the whole set's", held,
                int(held / whole));
  stats.notes.push_back(fell_back(text));
  return false;
}

// The distance tests the partitions' grids estimate (each grid's cost model over its own pairs),
// against the whole set's pairs; a note where they cannot prune.
bool grids_prune(const PlacedPoints& placed, const PartitionGrids& indexed, bool self, double whole, RunStats& stats) {
  double held = 0, tests = 0;
  for (std::size_t c = 0; c < indexed.grids.size(); ++c) {
    const double pairs = partition_pairs(placed, c, self);
    held += pairs;
    tests += indexed.grids[c]->grid().tested_share() * pairs;
  }
  stats.estimated_tests = std::uint64_t(tests);
  if (tests <= kGridCannotPruneShare * whole) return true;
  char text[256];
  std::snprintf(text, sizeof text,
                "the partitions with their copies hold %.3g pairs, %.2g times the whole set's %.3g, and their grids "
                "estimate %.3g distance tests, %.0f%% of the whole set's pairs (above %.0f%%)",
                held, held / whole, whole, tests, 100 * tests / whole, 100 * kGridCannotPruneShare);
  stats.notes.push_back(fell_back(text));
  return false;
}

// The partitions of A, for the views: centroids, membership and copies.
void keep_partitions(RunResult& result, std::size_t k, KMeansResult& clusters, Placement& placed_a) {
  PartitionStructure& structure = result.partitions.emplace();
  structure.k = k;
  structure.centroids.assign(clusters.centroids.begin(), clusters.centroids.end());
  structure.membership = std::move(clusters.membership);
  structure.replica_point = std::move(placed_a.copy_point);
  structure.replica_partition = std::move(placed_a.copy_partition);
  structure.iterations = clusters.iterations;
}
}  // namespace

std::string CpuKMeansEngine::description() const {
  return replicate_ ? "KMEANS-JOIN: k-means partitions with epsilon-bound replication, exact; "
                      "k = 0 chooses k, k > n is clamped to n"
                    : "Approximate KMEANS-JOIN without replication: may miss pairs near partition "
                      "borders; k = 0 chooses k, k > n is clamped to n";
}

Capabilities CpuKMeansEngine::capabilities() const {
  Capabilities caps;
  caps.exact = replicate_;
  return caps;
}

RunResult CpuKMeansEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                               RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  const PointSet32& a = *inputs.a;
  const bool self = inputs.self_join();
  if (a.empty()) {
    stats.notes.push_back("A is empty: no partitions");
    return result;
  }
  const std::size_t k = choose_k(std::size_t(params.k), a.size(), stats.notes);
  if (!replicate_) stats.notes.push_back("no replication: recall is known only against an exact count");

  KMeansResult clusters;
  {
    PhaseTimer timer(stats, "k-means");
    control.set_phase("k-means");
    // The centroids need not be exact, only fair (any centroids keep the join exact), so they are
    // fitted on a sample of a few hundred points per partition.
    const std::size_t sample = kCpuKMeansFitting.points(k);
    clusters = kmeans(a, {k, params.seed, kKMeansRounds, kKMeansSettle, params.threads, sample}, &control);
  }
  control.report(0.05);

  PlacedPoints placed = place_and_group(inputs, clusters, k, params, replicate_, stats, control);
  const double whole = double(candidate_pairs(self, a.size(), inputs.queries().size()));
  PartitionGrids indexed;
  if (replicate_ && !partitions_prune(placed, k, self, whole, stats)) {
    join_by_nested_loop(inputs, params, sink, stats, control);
  } else {
    indexed = index_partitions(inputs, placed, k, params, stats, control);
    control.report(0.15);
    if (replicate_ && !grids_prune(placed, indexed, self, whole, stats))
      join_by_nested_loop(inputs, params, sink, stats, control);
    else
      join_partitions(inputs, placed, indexed, params, sink, stats, control);
  }
  note_partitions(placed, indexed, k, clusters.iterations, self, stats);
  keep_partitions(result, k, clusters, placed.placed_a);
  return result;
}

}  // namespace simjoin
