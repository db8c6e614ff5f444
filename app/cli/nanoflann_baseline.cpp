// nanoflann's KD-tree as a peer of the CPU engines, in float64 on the file's own values.
//
// nanoflann keeps a point when its squared distance is strictly below the result set's worstDist()
// and prunes subtrees against the same value, so a plain radius search misses pairs at exactly eps.
// The search here runs with eps^2 widened by a relative 1e-9 and the project's rule decides every
// candidate: nanoflann's own float64 sum (dimension order, as the oracle's) where it is clearly
// inside or outside, the oracle (core/numeric/exact_test.hpp) in the narrow band around eps^2. The count
// is then exactly the exact engines'.
#include <chrono>
#include <cmath>
#include <limits>

#include <nanoflann.hpp>

#include "app/cli/peer_baselines.hpp"
#include "core/base/parallel.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin::cli {

namespace {
constexpr double kBand = 1e-9;  // relative: far above the rounding of a float64 sum of a few squares

// The points as nanoflann's dataset: row-major float64, no precomputed bounding box.
struct RowMajorPoints {
  const PointSet& points;
  std::size_t kdtree_get_point_count() const { return points.size(); }
  double kdtree_get_pt(std::uint32_t i, std::size_t k) const { return points.point(i)[k]; }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};

// One query's result set: pairs (query, j) with j > query, decided as the file comment says.
class ExactPairs {
 public:
  ExactPairs(const PointSet& points, const ExactBand& oracle, double eps, std::uint32_t query, PairBuffer& out)
      : points_(points), oracle_(oracle), query_(query), out_(out) {
    const double eps2 = eps * eps;
    // Outside the normal range (eps = 0 included) the oracle decides every candidate.
    plain_decides_ = eps2 > 1e-290 && eps2 < 1e290;
    widened_ = plain_decides_ ? eps2 * (1 + kBand) : std::numeric_limits<double>::min() + eps2 * (1 + kBand);
    inside_ = eps2 * (1 - kBand);
  }
  double worstDist() const { return widened_; }
  bool full() const { return true; }
  std::size_t size() const { return found_; }
  bool addPoint(double d2, std::uint32_t j) {
    if (j <= query_) return true;
    const bool within = plain_decides_ && d2 <= inside_
                            ? true
                            : oracle_.oracle_within(points_.point(query_), points_.point(j), points_.dims());
    if (within) {
      out_.push(query_, j);
      ++found_;
    }
    return true;
  }

 private:
  const PointSet& points_;
  const ExactBand& oracle_;
  std::uint32_t query_;
  PairBuffer& out_;
  bool plain_decides_ = false;
  double widened_ = 0, inside_ = 0;
  std::size_t found_ = 0;
};

// Builds the tree and searches every point into `sink`; Dim is the compile-time dimension (-1: any).
template <int Dim>
void join_once(const PointSet& points, double eps, int threads, PairSink& sink) {
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, RowMajorPoints>, RowMajorPoints,
                                                   Dim, std::uint32_t>;
  const RowMajorPoints data{points};
  const Tree tree(int(points.dims()), data);
  const ExactBand oracle = oracle_band(eps);
  RunControl control;
  std::uint64_t unused_tests = 0;
  parallel_rows(
      points.size(), threads, control,
      [&](std::size_t i, PairBuffer& out) {
        ExactPairs found(points, oracle, eps, std::uint32_t(i), out);
        tree.findNeighbors(found, points.point(i), nanoflann::SearchParams(0, 0, false));
        return std::uint64_t(0);
      },
      sink, unused_tests);
}
}  // namespace

PeerTiming time_nanoflann(const PointSet& points, double eps, int threads, bool keep_pairs, const RepeatRule& rule) {
  PeerTiming timing{"nanoflann", {}, 0, "float64 KD-tree, candidates decided by the exact test", true};
  run_repeated(rule, [&](bool timed) {
    CountSink count_sink;
    PairListSink list_sink;
    PairSink& sink = keep_pairs ? static_cast<PairSink&>(list_sink) : count_sink;
    const auto start = std::chrono::steady_clock::now();
    switch (points.dims()) {
      case 2:
        join_once<2>(points, eps, threads, sink);
        break;
      case 3:
        join_once<3>(points, eps, threads, sink);
        break;
      default:
        join_once<-1>(points, eps, threads, sink);
        break;
    }
    sink.finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!timed) return;
    timing.seconds.push_back(seconds);
    timing.pairs = sink.count();
  });
  return timing;
}

}  // namespace simjoin::cli
