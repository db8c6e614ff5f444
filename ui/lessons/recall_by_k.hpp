#pragma once
// How many of the exact pairs APRX-KMEANS-JOIN (cpu-kmeans-approx, no replication) finds, against
// the number of partitions: the trade-off of Korkmaz 2012, sec. 4.4.
#include <cstdint>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin::ui {

struct RecallAtK {
  int k = 0;
  std::uint64_t pairs = 0;  // found by the approximate engine
  std::uint64_t exact = 0;  // found by an exact engine
  double recall() const { return exact ? double(pairs) / double(exact) : 1.0; }
};

// The pairs a CPU engine finds among the points within eps, with k partitions where it has them.
std::uint64_t count_pairs(const char* engine, const PointSet& points, double eps, int k = 0);

// One entry per k (each clamped to the number of points, as the engine does).
std::vector<RecallAtK> recall_by_k(const PointSet& points, double eps, const std::vector<int>& ks);

}  // namespace simjoin::ui
