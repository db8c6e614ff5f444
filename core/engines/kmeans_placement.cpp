#include "core/engines/kmeans_placement.hpp"

#include <omp.h>

#include <cmath>
#include <new>

#include "core/base/error.hpp"
#include "core/base/parallel.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/points/kmeans.hpp"

// Why cpu-kmeans is exact, for self-joins and A join B alike. Let a (own partition i) and b (own
// partition j != i) satisfy |a - b| <= eps, and let h(x) be the signed distance of x to the
// bisector of c_i and c_j, positive on c_i's side; h is 1-Lipschitz. The test
// |x - c_j|^2 - |x - c_i|^2 <= 2 eps |c_i - c_j| is exactly h(x) <= eps for x on either side.
// Either h(a) <= eps, and a is copied into j, where b lives; or h(a) > eps, so h(b) > 0, b lies
// strictly on c_i's side, its test against i holds (left side negative) and b is copied into i,
// where a lives. This holds for any membership, converged or not, and for B's points as much as
// A's, since B is replicated by the same test. So every pair within eps shares a partition; each
// partition's epsilon-grid join finds every pair within eps among its points, and reporting a pair
// only from the highest partition holding both reports it exactly once. The test is
// evaluated in float64 with a relative margin far above its rounding error, so rounding can add
// copies (harmless) but never drop one.

namespace simjoin {

bool in_bisector_band(const float* s, const float* ci, const float* cj, std::size_t d, double eps) {
  double to_j = 0, to_i = 0, between = 0;
  for (std::size_t t = 0; t < d; ++t) {
    const double x = s[t], a = ci[t], b = cj[t];
    to_j += (x - b) * (x - b);
    to_i += (x - a) * (x - a);
    between += (a - b) * (a - b);
  }
  return in_bisector_band(to_j, to_i, std::sqrt(between), eps);
}

namespace {
Placement place_each_point(const PointSet32& points, const std::vector<std::uint32_t>* own,
                           const std::vector<float>& centroids, double eps, bool replicate, int threads,
                           RunControl& control) {
  const std::size_t n = points.size(), d = points.dims(), k = centroids.size() / d;
  Placement placement;
  placement.own.resize(n);
  std::vector<Placement> per_thread(static_cast<std::size_t>(threads));
  FirstError error;  // no exception may leave the parallel region
  // Static schedule: thread t takes the t-th contiguous chunk, so concatenating the per-thread
  // copies in thread order keeps them in point order.
#pragma omp parallel num_threads(threads)
  {
    Placement& local = per_thread[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::size_t p = 0; p < n; ++p) {
      if (error.failed() || control.cancelled()) continue;
      const float* s = points.point(p);
      const std::uint32_t i = own ? (*own)[p] : nearest_centroid(s, centroids, d);
      placement.own[p] = i;
      if (!replicate) continue;
      try {
        for (std::uint32_t j = 0; j < k; ++j)
          if (j != i && in_bisector_band(s, &centroids[i * d], &centroids[j * d], d, eps)) {
            local.copy_point.push_back(std::uint32_t(p));
            local.copy_partition.push_back(j);
          }
      } catch (...) {
        error.capture();
      }
    }
  }
  control.throw_if_cancelled();
  error.rethrow();
  for (const Placement& local : per_thread) {
    placement.copy_point.insert(placement.copy_point.end(), local.copy_point.begin(), local.copy_point.end());
    placement.copy_partition.insert(placement.copy_partition.end(), local.copy_partition.begin(),
                                    local.copy_partition.end());
  }
  return placement;
}

}  // namespace

// With eps near the data's diameter every point may be copied into every partition (n x k copies).
Placement place_points(const PointSet32& points, const std::vector<std::uint32_t>* own,
                       const std::vector<float>& centroids, double eps, bool replicate, int threads,
                       RunControl& control) {
  try {
    return place_each_point(points, own, centroids, eps, replicate, threads, control);
  } catch (const std::bad_alloc&) {
    fail(ErrorKind::OutOfMemory,
         "cpu-kmeans: the copies of points near partition borders do not fit in memory "
         "(eps is large compared with the partitions); a smaller k, or cpu-grid, needs fewer");
  }
}

}  // namespace simjoin
