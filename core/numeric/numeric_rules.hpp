#pragma once
// The numeric rules the CPU engines (core/) and the GPU engines (cuda/, compiled by nvcc) share: the
// per-pair float32 squared distance, the cell of an epsilon-grid and its width, the margins of the
// indexes' searches and the k-means fitting. A rule changed here changes on both sides; where the two
// sides deliberately differ, both values are named here with the reason. The exact test itself is in
// core/numeric/exact_test.hpp, the proof of its band and of the search radius in core/frame/join_frame.cpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/numeric/host_device.hpp"

namespace simjoin {

// --- Rounding a double to float32 in a known direction (host only) -------------------------------

// The largest float <= x, and the smallest float >= x: bounds kept on the safe side of a proof.
inline float float_below(double x) {
  float f = float(x);
  if (double(f) > x) f = std::nextafter(f, -INFINITY);
  return f;
}
inline float float_above(double x) {
  float f = float(x);
  if (double(f) < x) f = std::nextafter(f, INFINITY);
  return f;
}

// --- The per-pair distance ---------------------------------------------------------------------

// sum + (x - y)^2 in float32. On the GPU with explicit round-to-nearest operations, so that nvcc
// fuses no multiply-add; on the CPU as the compiler chooses. The band of core/frame/join_frame.cpp holds
// with or without fused multiply-add (the tiled GPU kernels, cuda/detail/difference_tile.cuh, fuse).
SIMJOIN_HOST_DEVICE inline float add_squared_difference(float sum, float x, float y) {
#if defined(__CUDA_ARCH__)
  const float diff = __fsub_rn(x, y);
  return __fadd_rn(sum, __fmul_rn(diff, diff));
#else
  const float diff = x - y;
  return sum + diff * diff;
#endif
}

// The float32 squared distance every engine tests a pair with, summed over the dimensions in order;
// ExactPairTest (core/numeric/exact_test.hpp) decides from it.
SIMJOIN_HOST_DEVICE inline float squared_distance(const float* p, const float* q, std::size_t d) {
  float sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum = add_squared_difference(sum, p[k], q[k]);
  return sum;
}

// The same sum, stopped once it passes `reject` (the exact test's bound, ExactBand::reject): the value
// returned is then above it too, and the pair is no pair. The GPU kernels' form: a thread stops early.
SIMJOIN_HOST_DEVICE inline float squared_distance(const float* p, const float* q, int d, float reject) {
  float sum = 0;
  for (int k = 0; k < d && sum <= reject; ++k) sum = add_squared_difference(sum, p[k], q[k]);
  return sum;
}

// --- The epsilon-grid's cells (cpu-grid, cpu-kmeans' partitions, gpu-grid) ---------------------

// Grids keep (extent / cell width) below this, so that cell coordinates and their neighbours' fit
// int64 with room to spare. Under the join frame a dimension spans at most about 2^24 cells: its
// search radius includes its rounding bound, over 2^-24 times every dimension's extent
// (core/frame/join_frame.cpp), so far outliers add cells but never widen them.
inline constexpr double kMaxCellsPerDim = 0x1p60;

// floor((x - origin) / width) for width > 0 and a quotient below 2^61 in magnitude: the floor of a
// value within 2^-40 of the exact quotient however large it is (a plain float64 quotient is off by
// up to 2^-53 of its value, 256 cells at 2^61). x - origin = s + e exactly (TwoSum); k =
// floor(s / width) is within 2^8 + 1 cells of the answer; the rest, (s - k width + e) / width with
// one fused rounding, an addition and a division, errs by under 2^-41 of a cell; the int64 sum is
// exact. So with a width of eps (1 + margin), margin >= 2^-20, points within eps land in the same or
// adjacent cells: their exact quotients differ by at most 1 / (1 + margin) < 1 - 2^-21, the values
// floored by less than 1, and the floors by at most 1.
// floor(y), the same value, without a library call on the host: x86-64 below SSE4.1 has no rounding
// instruction, and the grids floor two values a point. Below 2^62 in magnitude the conversion to
// int64 truncates exactly, and floors but for negative non-integers; above, y is an integer already.
SIMJOIN_HOST_DEVICE inline double floor_value(double y) {
#if defined(__CUDA_ARCH__)
  return floor(y);
#else
  if (!(std::fabs(y) < 0x1p62)) return std::floor(y);
  const double t = double(std::int64_t(y));
  return t > y ? t - 1 : t;
#endif
}

SIMJOIN_HOST_DEVICE inline std::int64_t cell_floor(double x, double origin, double width) {
  const double s = x - origin;
  const double back = s - x;
  const double e = (x - (s - back)) - (origin + back);
  const double k = floor_value(s / width);
  return std::int64_t(k) + std::int64_t(floor_value((fma(-k, width, s) + e) / width));
}

// How much wider than the search radius r a grid's cells are. Why it keeps the neighbour search
// complete (every pair within r in the same or adjacent cells), rounding included: cell_floor needs a
// margin of at least 2^-20 (9.54e-7). The width r (1 + kCellWidthMargin) is two float64 roundings,
// fl(1 + 1e-6) and the product, each off by at most 2^-53 relatively, so the width is at least
// r (1 + 1e-6) (1 - 2^-52) > r (1 + 2^-20): 1e-6 - 2^-20 = 4.6e-8 is far above 2^-52. r is a normal
// double (the frame's radius is at least 2^-148, core/frame/join_frame.cpp), so the product is not
// rounded as a subnormal would be. Widening by kMaxCellsPerDim below only widens further. The margin
// is no wider than needed: wider cells hold more candidates. (gpu-grid widened by 1e-3 and cpu-grid by
// 1e-6 before both took this rule.)
// Slack under the join frame, kept: a margin of 0 fails no input (mutation check), because the frame's
// radius r = (t_max + E)(1 + 2^-40) already exceeds every float32 distance of a pair by a relative
// 2^-40 less a few float64 roundings (2^-53 each, core/frame/join_frame.cpp); but the two cell_floor
// values of a pair may each be off by up to 2^-41 of a cell, 2^-40 together, so with a margin of 0
// no proof closes (exact quotients up to 1 - 2^-40 + 4 2^-53 apart, floored values up to 1 + 4 2^-53
// apart). The rule is stated for any radius, the frame's or not, and the cells' extra width of 1e-6
// costs about d 1e-6 more candidates, which no timing resolves: not tightened.
inline constexpr double kCellWidthMargin = 1e-6;

// The cell width of a grid for search radius r (frame units) over data whose widest extent is
// max_extent: r (1 + kCellWidthMargin), at least max_extent / kMaxCellsPerDim (never binding under
// the join frame), and 1 where both are 0 (eps = 0 over equal points: one cell; equal points get
// equal cells at any positive width).
inline double grid_cell_width(double search_radius, double max_extent) {
  const double width = std::max(search_radius * (1 + kCellWidthMargin), max_extent / kMaxCellsPerDim);
  return width > 0 ? width : 1.0;
}

// (gpu-lss and gpu-boehm search the frame's radius itself: their files prove why no relative margin on
// it is needed, gpu-boehm's page slack being what covers its rotation's rounding.)

// --- The replication band of the k-means joins (cpu-kmeans, gpu-kmeans, gpu-rejoin) -------------

// A point x of partition i is copied into partition j when |x - c_j|^2 - |x - c_i|^2 <= 2 r |c_i - c_j|:
// x lies within the search radius r of their bisector (the proof is in core/engines/cpu_kmeans.cpp).
// The three lengths are float64 sums over the float32 coordinates, each off by a relative (d + 2)
// 2^-53 or so; a relative margin of 1e-9 on the whole comparison covers that for any d up to
// kMaxDims, so rounding can add copies (harmless) but never drop one. (gpu-kmeans widened r by 1e-6
// and compared with a margin of 1e-12 of the squared distances before both took this rule.)
// Slack in practice, kept. The band copies within r of the bisector where r / 2 would do (of two
// points within r on either side, one lies within r / 2 of it: cpu_kmeans.cpp's proof with r / 2), so
// the point that must be copied has to_j - to_i < r gap, at least r gap below the band: its rounding,
// at most about (d + 2) 2^-52 (to_j + to_i), is covered without the margin wherever
// gap >= (d + 2) 2^-52 (to_j + to_i) / r, i.e. unless two centroids are closer than about (d + 2) 2^-51
// times the squared extent over r. The centroids come from the fitting, so no input can set that up on
// purpose, and none in the mutation check loses a pair without the margin; for centroids that close
// only the margin keeps the test sound, so it stays (its cost: copies within 1e-9 relative of the band).
inline constexpr double kBisectorBandMargin = 1e-9;

// to_j = |x - c_j|^2, to_i = |x - c_i|^2, gap = |c_i - c_j|, all in float64.
SIMJOIN_HOST_DEVICE inline bool in_bisector_band(double to_j, double to_i, double gap, double search_radius) {
  const double band = 2 * search_radius * gap;
  return to_j - to_i <= band + kBisectorBandMargin * (to_j + to_i + band);
}

// --- k-means fitting (cpu-kmeans, gpu-kmeans, gpu-rejoin) ---------------------------------------

// Both sides fit the centroids on at most max(min_points, points_per_centroid k) evenly spaced points
// (all of a smaller set): the centroids need not be exact, only fair, since any centroids keep the
// join exact. The GPU fits on eight times as many: a Lloyd round costs it about as little per point
// as one pass over the memory, while the CPU's round is one core's serial update, whose time would
// otherwise outgrow the join's.
struct KMeansFitting {
  std::size_t min_points;
  std::size_t points_per_centroid;
  constexpr std::size_t points(std::size_t k) const {
    return points_per_centroid * k > min_points ? points_per_centroid * k : min_points;
  }
};
inline constexpr KMeansFitting kCpuKMeansFitting{32768, 256};
inline constexpr KMeansFitting kGpuKMeansFitting{262144, 512};

// Lloyd rounds at most, on either side.
inline constexpr int kKMeansRounds = 25;
// When the centroids count as settled. The CPU compares its largest centroid move with this fraction
// of the data's extent; the GPU, which sums the moves with one atomic per coordinate rather than
// keeping a maximum, compares the summed squared moves with this fraction of the points' mean
// per-dimension variance (scikit-learn's rule), and also stops once at most one point in
// kKMeansSettledChanges changes partition.
inline constexpr double kKMeansSettle = 1e-4;
inline constexpr std::size_t kKMeansSettledChanges = 1000;

}  // namespace simjoin
