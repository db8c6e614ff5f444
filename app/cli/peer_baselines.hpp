#pragma once
// Peers timed beside the engines by `simjoin bench` on the same points: SciPy's cKDTree (through
// scripts/scipy_ckdtree_count.py) and nanoflann's KD-tree (in this process).
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/points/point_set.hpp"
#include "core/report/repeat_timing.hpp"

namespace simjoin::cli {

struct PeerTiming {
  std::string name;
  std::vector<double> seconds;  // one per timed run
  std::uint64_t pairs = 0;
  std::string note;    // how its count relates to the exact engines'
  bool exact = false;  // its count must equal the exact engines'
};

// One run of cKDTree.query_ball_point(workers=-1, return_length=True), build included; the pair count
// is inclusive of eps in float64 (its own summation order). Throws Error(Unavailable) when python3
// with SciPy cannot run.
PeerTiming time_scipy_ckdtree(const PointSet& points, double eps);

// nanoflann's KD-tree (float64, build included) radius search of every point on `threads` OpenMP
// threads (0: all cores), pairs i < j into a fresh sink per run (pairs kept when `keep_pairs`),
// timed by `rule`. Its count is the exact engines': see nanoflann_baseline.cpp.
PeerTiming time_nanoflann(const PointSet& points, double eps, int threads, bool keep_pairs, const RepeatRule& rule);

}  // namespace simjoin::cli
