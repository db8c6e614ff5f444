#include "core/point_set.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace simjoin {

namespace {
void check_dims(std::size_t dims) {
  if (dims == 0) fail(ErrorKind::BadInput, "point set has 0 dimensions (need 1 to 1024)");
  if (dims > kMaxDims)
    fail(ErrorKind::BadInput,
         "point set has " + std::to_string(dims) + " dimensions, more than the supported 1024");
}
}  // namespace

PointSet::PointSet(std::size_t n, std::size_t dims) : n_(n), d_(dims) {
  check_dims(dims);
  coords_.resize(n * dims);
}

PointSet::PointSet(std::size_t n, std::size_t dims, std::vector<float> coords)
    : n_(n), d_(dims), coords_(std::move(coords)) {
  check_dims(dims);
  if (coords_.size() != n * dims)
    fail(ErrorKind::Internal, "PointSet: coordinate count does not equal n x d");
}

Bounds compute_bounds(const PointSet& points) {
  Bounds b;
  if (points.empty()) return b;
  const std::size_t d = points.dims(), n = points.size();
  b.low.assign(points.point(0), points.point(0) + d);
  b.high = b.low;
  // One pass per thread over its rows (engines call this on every run, for millions of points).
#pragma omp parallel if (n * d >= (1u << 20))
  {
    std::vector<float> low = b.low, high = b.high;
#pragma omp for schedule(static) nowait
    for (std::size_t i = 1; i < n; ++i) {
      const float* p = points.point(i);
      for (std::size_t k = 0; k < d; ++k) {
        low[k] = std::min(low[k], p[k]);
        high[k] = std::max(high[k], p[k]);
      }
    }
#pragma omp critical(simjoin_bounds)
    for (std::size_t k = 0; k < d; ++k) {
      b.low[k] = std::min(b.low[k], low[k]);
      b.high[k] = std::max(b.high[k], high[k]);
    }
  }
  return b;
}

void require_finite(const PointSet& points, const std::string& where) {
  const std::size_t d = points.dims();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const float* p = points.point(i);
    for (std::size_t k = 0; k < d; ++k) {
      if (!std::isfinite(p[k]))
        fail(ErrorKind::BadInput, where + ": point " + std::to_string(i) + ", dimension " +
                                      std::to_string(k) + " is " +
                                      (std::isnan(p[k]) ? "NaN" : "infinite") +
                                      "; every coordinate must be a finite number");
    }
  }
}

}  // namespace simjoin
