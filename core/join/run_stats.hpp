#pragma once
// What a run reports: timings per phase, counts, and the algorithm's own structures so that views
// can draw them without running the join again.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace simjoin {

struct PhaseTime {
  std::string name;
  double seconds = 0;
};

struct RunStats {
  std::string engine;
  std::string device = "cpu";
  std::uint64_t n = 0;    // points in A (the only set for a self-join)
  std::uint64_t n_b = 0;  // points in B; 0 for a self-join
  std::uint64_t d = 0;
  double eps = 0;
  int k = 0;  // partitions, where the engine has them
  std::uint64_t pairs = 0;
  double seconds_total = 0;
  std::vector<PhaseTime> phases;
  std::uint64_t replicated_points = 0;  // copies made by replication (KMEANS-JOIN)
  std::uint64_t compared_pairs = 0;     // distance tests performed
  // Distance tests the engine's index expected to make, known before the join: the grid's cost model
  // (cpu-grid, and the grids inside cpu-kmeans' partitions) or the pairs KMEANS-JOIN's partitions hold
  // with their copies. Beside compared_pairs it shows what the index would have pruned, also where the
  // engine found it could not prune and joined by the nested loop. 0 where the engine estimates none.
  std::uint64_t estimated_tests = 0;
  std::uint64_t extra_bytes = 0;   // engine memory beyond input and output
  std::vector<std::string> notes;  // choices the engine made (e.g. indexed dimensions)

  // compared_pairs over the number of candidate pairs (n(n-1)/2, or n*n_b).
  double compared_ratio() const;
  void add_phase(const std::string& name, double seconds);
  double phase_seconds(const std::string& name) const;
};

// The candidate pairs of a join: n(n-1)/2 for a self-join of n points, else n * n_b.
std::uint64_t candidate_pairs(bool self_join, std::uint64_t n, std::uint64_t n_b);

void to_json(nlohmann::json& json, const RunStats& stats);

// k-means partitions and the epsilon-bound replication (KMEANS-JOIN engines).
struct PartitionStructure {
  std::size_t k = 0;
  std::vector<double> centroids;                 // k x d
  std::vector<std::uint32_t> membership;         // per point of A: its own partition
  std::vector<std::uint32_t> replica_point;      // copy r is point replica_point[r] ...
  std::vector<std::uint32_t> replica_partition;  // ... placed into partition replica_partition[r]
  int iterations = 0;
};

// The epsilon-grid (grid engines): non-empty cells only, as in Gowanlock & Karsin, identified by
// their integer coordinates, so the cells stay eps wide however far apart the points lie.
struct GridStructure {
  double cell_width = 0;
  std::vector<int> indexed_dims;  // dimensions the grid is built on
  std::vector<double> origin;     // per indexed dimension: cell c covers [origin + c w, origin + (c+1) w)
  // B: the coordinates of the non-empty cells, indexed_dims.size() per cell, cells sorted by
  // coordinate tuple with the last slot most significant (the first varies fastest). One cell with
  // no coordinates when nothing is indexed.
  std::vector<std::int64_t> cell_coords;
  std::vector<std::uint32_t> cell_begin;  // G: range [begin, end) of each cell in point_order
  std::vector<std::uint32_t> cell_end;
  std::vector<std::uint32_t> point_order;  // A: point ids sorted by cell
  bool unicomp = true;
  std::size_t cell_count() const { return cell_begin.size(); }
};

struct RunResult {
  RunStats stats;
  std::optional<PartitionStructure> partitions;
  std::optional<GridStructure> grid;
};

// Measures one phase and appends it to the stats when it goes out of scope.
class PhaseTimer {
 public:
  PhaseTimer(RunStats& stats, std::string name);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  RunStats& stats_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace simjoin
