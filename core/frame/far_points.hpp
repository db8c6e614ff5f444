#pragma once
// Far points: a few points far from all the others (outliers at 1e7 among data in the unit cube)
// would widen the join frame's rounding bound, and with it every engine's search radius, for every
// point; and the tensor-core form's rounding band, which grows with the square of the spread. The frame
// step (core/frame/frame_step.hpp) sets them apart instead: the engines join the bulk in a frame fitted
// to it, and the far points are joined with every point by the oracle's own float64 test.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/frame/join_frame.hpp"
#include "core/join/engine.hpp"

namespace simjoin {

struct FarPoints {
  std::vector<std::uint32_t> a, b;  // ascending row numbers of the far points of A and of B
  // The rectangle outside which a point counts as far (per dimension, inclusive).
  Bounds64 bulk;
  bool empty() const { return a.empty() && b.empty(); }
  std::size_t size() const { return a.size() + b.size(); }
};

// The points worth setting apart for a join within eps: those outside the middle of the data (a box
// around the 1st to 99th percentiles of a sample, three times as wide) when that shrinks the
// frame's rounding bound, and with it the data's spread, at least fourfold, where that matters: where
// the bound is above eps / 64, or, with `spread_matters` (an engine whose speed falls with the spread:
// Capabilities::spread_matters), where the data reaches farther than a few eps from its middle. And
// only while joining them costs at most about 2^30 float64 operations (a far point separated from the
// middle by more than eps is tested against the other far points alone), and they number at most
// 1,024 or as many as could each test every point within that cost. Otherwise none. `whole` is the
// frame of the caller's eps over all points of A and B.
FarPoints find_far_points(const JoinSources& sources, const JoinFrame& whole, int threads, bool spread_matters = false);
// The same for eps in the file's units.
FarPoints find_far_points(const JoinSources& sources, double eps, int threads, bool spread_matters = false);

// The rows of `points` not listed in `far` (ascending), and in `kept` their row numbers; copied by
// `threads` threads (0: all), stopping with Error(Cancelled) once `control` (if given) is cancelled.
PointSet without_rows(const PointSet& points, std::span<const std::uint32_t> far, std::vector<std::uint32_t>& kept,
                      int threads = 0, const RunControl* control = nullptr);

// Joins the far points with every point (and each other) by the oracle's test on the file's values;
// pairs go to the sink in its convention. Returns the number of distance tests.
std::uint64_t join_far_points(const JoinSources& sources, const FarPoints& far, double eps, int threads, PairSink& sink,
                              RunControl& control);

// Structures of an engine that joined the rows `kept` of A, renumbered to all of A's rows; far points
// join the partition of their nearest centroid (centroids in file coordinates) and no grid cell.
void renumber_structures(RunResult& result, std::span<const std::uint32_t> kept, const PointSet& a);

// A join's sets with their far points (find_far_points) set apart: the bulk, which an engine joins in
// a frame fitted to it, and afterwards the far points, joined with every point in float64.
class BulkSources {
 public:
  // Finds the far points of `sources` (`whole`: the frame of the caller's eps over all their points;
  // `spread_matters` as for find_far_points) and copies the other rows aside, stopping with
  // Error(Cancelled) once `control` (if given) is cancelled. `sources` must outlive this.
  BulkSources(const JoinSources& sources, JoinFrame whole, int threads, bool spread_matters = false,
              const RunControl* control = nullptr);
  BulkSources(const BulkSources&) = delete;
  BulkSources& operator=(const BulkSources&) = delete;

  bool has_far_points() const { return !far_.empty(); }
  // The rows the engine joins: the caller's sets themselves where no point is far.
  JoinSources rows() const;
  // The frame they are joined in: `whole`, or where some points are far the frame over the rest.
  const JoinFrame& frame() const { return frame_; }
  // Row numbers in the caller's A and in the caller's queries (B, or A for a self-join) of the bulk's
  // rows, for renumbering the engine's pairs (RenumberingSink); empty without far points.
  std::span<const std::uint32_t> rows_of_a() const { return rows_a_; }
  std::span<const std::uint32_t> rows_of_queries() const { return sources_.b ? rows_b_ : rows_a_; }
  // After the engine joined the bulk: joins the far points with every point (pairs to `sink`, in the
  // caller's row numbers), renumbers the engine's structures to the caller's rows and notes both in
  // the result. Does nothing without far points.
  void join_far_points(RunResult& result, PairSink& sink, RunControl& control) const;

 private:
  JoinSources sources_;
  int threads_;
  FarPoints far_;
  std::optional<PointSet> a_, b_;
  std::vector<std::uint32_t> rows_a_, rows_b_;
  JoinFrame frame_;
};

}  // namespace simjoin
