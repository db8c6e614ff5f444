#include "core/points/point_set.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_set>

#include "core/base/error.hpp"

namespace simjoin {

void check_dims(std::size_t dims) {
  if (dims == 0) fail(ErrorKind::BadInput, "point set has 0 dimensions (need 1 to 1024)");
  if (dims > kMaxDims)
    fail(ErrorKind::BadInput, "point set has " + std::to_string(dims) + " dimensions, more than the supported 1024");
}

void check_coordinate_count(std::size_t values, std::size_t n, std::size_t dims) {
  if (values != n * dims) fail(ErrorKind::Internal, "PointSet: coordinate count does not equal n x d");
}

namespace {
template <typename T>
BasicBounds<T> bounds_of(const BasicPointSet<T>& points, std::size_t rows = SIZE_MAX) {
  BasicBounds<T> b;
  if (points.empty() || rows == 0) return b;
  const std::size_t d = points.dims(), n = std::min(points.size(), rows);
  b.low.assign(points.point(0), points.point(0) + d);
  b.high = b.low;
  // One pass per thread over its rows (engines call this on every run, for millions of points). The
  // threads' bounds are allocated before the parallel region, which no exception may leave.
  const int threads = n * d >= (1u << 20) ? omp_get_max_threads() : 1;
  std::vector<BasicBounds<T>> partial(std::size_t(threads), b);
#pragma omp parallel num_threads(threads)
  {
    BasicBounds<T>& own = partial[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::size_t i = 1; i < n; ++i) {
      const T* p = points.point(i);
      for (std::size_t k = 0; k < d; ++k) {
        own.low[k] = std::min(own.low[k], p[k]);
        own.high[k] = std::max(own.high[k], p[k]);
      }
    }
  }
  for (const BasicBounds<T>& own : partial)
    for (std::size_t k = 0; k < d; ++k) {
      b.low[k] = std::min(b.low[k], own.low[k]);
      b.high[k] = std::max(b.high[k], own.high[k]);
    }
  return b;
}

template <typename T>
BasicBounds<T> joint_bounds_of(const BasicPointSet<T>& a, const BasicPointSet<T>* b) {
  BasicBounds<T> bounds = bounds_of(a);
  if (!b || b->empty()) return bounds;
  const BasicBounds<T> other = bounds_of(*b);
  if (bounds.low.empty()) return other;
  for (std::size_t k = 0; k < a.dims(); ++k) {
    bounds.low[k] = std::min(bounds.low[k], other.low[k]);
    bounds.high[k] = std::max(bounds.high[k], other.high[k]);
  }
  return bounds;
}
}  // namespace

Bounds compute_bounds(const PointSet32& points, std::size_t rows) { return bounds_of(points, rows); }
Bounds64 compute_bounds(const PointSet& points, std::size_t rows) { return bounds_of(points, rows); }
Bounds joint_bounds(const PointSet32& a, const PointSet32* b) { return joint_bounds_of(a, b); }
Bounds64 joint_bounds(const PointSet& a, const PointSet* b) { return joint_bounds_of(a, b); }

PointSet sample_points(const PointSet& points, std::size_t count, std::uint64_t seed) {
  count = std::min(count, points.size());
  // Floyd's algorithm: `count` distinct rows in O(count), however many points there are.
  std::unordered_set<std::size_t> chosen;
  std::mt19937_64 random(seed);
  for (std::size_t last = points.size() - count; last < points.size(); ++last) {
    const std::size_t row = std::uniform_int_distribution<std::size_t>(0, last)(random);
    chosen.insert(chosen.count(row) ? last : row);
  }
  std::vector<std::size_t> rows(chosen.begin(), chosen.end());
  std::sort(rows.begin(), rows.end());
  PointSet sample(count, points.dims());
  for (std::size_t r = 0; r < count; ++r) std::copy_n(points.point(rows[r]), points.dims(), sample.point(r));
  sample.source = points.source + " (sample of " + std::to_string(count) + ")";
  return sample;
}

void require_finite(const PointSet& points, const std::string& where) {
  const std::size_t d = points.dims();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double* p = points.point(i);
    for (std::size_t k = 0; k < d; ++k) {
      if (!std::isfinite(p[k]))
        fail(ErrorKind::BadInput, where + ": point " + std::to_string(i) + ", dimension " + std::to_string(k) + " is " +
                                      (std::isnan(p[k]) ? "NaN" : "infinite") +
                                      "; every coordinate must be a finite number");
    }
  }
}

}  // namespace simjoin
