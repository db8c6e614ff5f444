#pragma once
// The pairs APRX-KMEANS-JOIN (cpu-kmeans-approx) misses, for the Replication view: it joins each
// partition alone without copies, so it finds exactly the pairs within eps whose points share a
// partition; the others, found here by an exact engine, are the ones it misses.
#include <cstdint>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/join/run_stats.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::ui {

// Points up to which the view computes the missed pairs (an exact join of all of them).
inline constexpr std::size_t kMaxMissedPairPoints = 200'000;

struct MissedPairs {
  std::uint64_t exact = 0;   // pairs within eps
  std::vector<Pair> missed;  // those across partitions, ascending
  double recall() const { return exact ? double(exact - missed.size()) / double(exact) : 1.0; }
};

// The exact pairs of `points` within eps (by cpu-grid) whose points lie in different partitions.
MissedPairs missed_pairs(const PointSet& points, const PartitionStructure& partitions, double eps);

}  // namespace simjoin::ui
