#pragma once
// Far points: a few points far from all the others (outliers at 1e7 among data in the unit cube)
// would widen the join frame's rounding bound, and with it every engine's search radius, for every
// point. run_engine sets them apart instead: the engines join the bulk in a frame fitted to it, and
// the far points are joined with every point by the oracle's own float64 test.
#include <cstdint>
#include <span>
#include <vector>

#include "core/engine.hpp"

namespace simjoin {

struct FarPoints {
  std::vector<std::uint32_t> a, b;  // ascending row numbers of the far points of A and of B
  // The rectangle outside which a point counts as far (per dimension, inclusive).
  Bounds64 bulk;
  // The bounding box of all points of A and B, measured on the way: the frame's where none is far.
  Bounds64 all;
  bool empty() const { return a.empty() && b.empty(); }
  std::size_t size() const { return a.size() + b.size(); }
};

// The points worth setting apart for a join within eps: those outside the middle of the data (a box
// around the 1st to 99th percentiles of a sample, three times as wide) when that shrinks the
// frame's rounding bound at least fourfold where it matters (above eps / 64), and when joining them
// with every point costs at most about 2^30 float64 operations. Otherwise none.
FarPoints find_far_points(const JoinSources& sources, double eps, int threads);

// The rows of `points` not listed in `far` (ascending), and in `kept` their row numbers.
PointSet without_rows(const PointSet& points, std::span<const std::uint32_t> far,
                      std::vector<std::uint32_t>& kept);

// Joins the far points with every point (and each other) by the oracle's test on the file's values;
// pairs go to the sink in its convention. Returns the number of distance tests.
std::uint64_t join_far_points(const JoinSources& sources, const FarPoints& far, double eps, int threads,
                              PairSink& sink, RunControl& control);

// Structures of an engine that joined the rows `kept` of A, renumbered to all of A's rows; far points
// join the partition of their nearest centroid (centroids in file coordinates) and no grid cell.
void renumber_structures(RunResult& result, std::span<const std::uint32_t> kept, const PointSet& a);

}  // namespace simjoin
