#include "core/points/kmeans.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/base/error.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

namespace {
void check_cancel(const RunControl* control) {
  if (control) control->throw_if_cancelled();
}

bool cancelled(const RunControl* control) { return control && control->cancelled(); }

// k-means++: each further centre is drawn with probability proportional to the squared distance
// to the nearest centre chosen so far.
std::vector<float> seed_centroids(const PointSet32& points, std::size_t k, std::mt19937_64& random, int threads,
                                  const RunControl* control) {
  const std::size_t n = points.size(), d = points.dims();
  std::vector<float> centroids;
  centroids.reserve(k * d);
  const auto take = [&](std::size_t i) { centroids.insert(centroids.end(), points.point(i), points.point(i) + d); };
  take(std::uniform_int_distribution<std::size_t>(0, n - 1)(random));
  std::vector<double> nearest(n, INFINITY);
  for (std::size_t c = 1; c < k; ++c) {
    const float* last = centroids.data() + (c - 1) * d;
    double total = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : total) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      if (cancelled(control)) continue;
      nearest[i] = std::min(nearest[i], double(squared_distance(points.point(i), last, d)));
      total += nearest[i];
    }
    check_cancel(control);
    std::size_t chosen;
    if (total > 0) {
      // Walk the cumulative weights to a uniform draw in [0, total).
      double target = std::uniform_real_distribution<double>(0, total)(random);
      chosen = 0;
      while (chosen + 1 < n && (target -= nearest[chosen]) >= 0) ++chosen;
    } else {
      chosen = std::uniform_int_distribution<std::size_t>(0, n - 1)(random);  // all points equal
    }
    take(chosen);
  }
  return centroids;
}

// The nearest centroid of every point. With the centroids transposed, the distances from a point to
// all of them take one vectorised loop per dimension; each is still summed over the dimensions in
// order, as in nearest_centroid, and ties go to the lowest index, so the memberships are the same.
void assign(const PointSet32& points, const std::vector<float>& centroids, std::vector<std::uint32_t>& membership,
            int threads, const RunControl* control) {
  const std::size_t d = points.dims(), k = centroids.size() / d;
  std::vector<float> columns(k * d);  // column t: coordinate t of every centroid
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t t = 0; t < d; ++t) columns[t * k + c] = centroids[c * d + t];
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> distance(k);
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (cancelled(control)) continue;
      const float* p = points.point(i);
      std::fill(distance.begin(), distance.end(), 0.0f);
      for (std::size_t t = 0; t < d; ++t) {
        const float pt = p[t];
        const float* column = columns.data() + t * k;
        for (std::size_t c = 0; c < k; ++c) {
          const float diff = pt - column[c];
          distance[c] += diff * diff;
        }
      }
      membership[i] = std::uint32_t(std::min_element(distance.begin(), distance.end()) - distance.begin());
    }
  }
  check_cancel(control);
}

// m of the points, evenly spaced in their order: a fair sample of data in any order, sorted included.
PointSet32 evenly_spaced(const PointSet32& points, std::size_t m) {
  PointSet32 sample(m, points.dims());
  for (std::size_t i = 0; i < m; ++i) std::copy_n(points.point(i * points.size() / m), points.dims(), sample.point(i));
  return sample;
}

// Moves each centroid to the mean of its members (float64 sums); an empty partition keeps its
// centroid. Returns the largest distance a centroid moved.
double update(const PointSet32& points, const std::vector<std::uint32_t>& membership, std::vector<float>& centroids) {
  const std::size_t d = points.dims(), k = centroids.size() / d;
  std::vector<double> sums(k * d, 0.0);
  std::vector<std::size_t> counts(k, 0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    ++counts[membership[i]];
    for (std::size_t t = 0; t < d; ++t) sums[membership[i] * d + t] += points.point(i)[t];
  }
  double moved = 0;
  for (std::size_t c = 0; c < k; ++c) {
    if (counts[c] == 0) continue;
    double shift = 0;
    for (std::size_t t = 0; t < d; ++t) {
      const float mean = float(sums[c * d + t] / double(counts[c]));
      shift += double(mean - centroids[c * d + t]) * double(mean - centroids[c * d + t]);
      centroids[c * d + t] = mean;
    }
    moved = std::max(moved, std::sqrt(shift));
  }
  return moved;
}
}  // namespace

std::uint32_t nearest_centroid(const float* p, const std::vector<float>& centroids, std::size_t d) {
  const std::size_t k = centroids.size() / d;
  std::uint32_t best = 0;
  float best_distance = INFINITY;
  for (std::size_t c = 0; c < k; ++c) {
    const float distance = squared_distance(p, centroids.data() + c * d, d);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::uint32_t(c);
    }
  }
  return best;
}

KMeansResult kmeans(const PointSet32& points, const KMeansParams& params, const RunControl* control) {
  if (params.k < 1 || params.k > points.size())
    fail(ErrorKind::Usage,
         "k-means needs 1 <= k <= " + std::to_string(points.size()) + " (got k = " + std::to_string(params.k) + ")");
  const int threads = params.threads > 0 ? params.threads : omp_get_max_threads();
  const std::size_t fitted = std::max(params.sample, params.k);
  if (params.sample != 0 && fitted < points.size()) {
    KMeansParams on_sample = params;
    on_sample.sample = 0;
    KMeansResult result = kmeans(evenly_spaced(points, fitted), on_sample, control);
    result.membership.assign(points.size(), 0);
    assign(points, result.centroids, result.membership, threads, control);
    return result;
  }
  std::mt19937_64 random(params.seed);
  KMeansResult result;
  result.centroids = seed_centroids(points, params.k, random, threads, control);
  result.membership.assign(points.size(), 0);

  const Bounds bounds = compute_bounds(points);
  double extent = 0;
  for (std::size_t t = 0; t < points.dims(); ++t)
    extent = std::max(extent, double(bounds.high[t]) - double(bounds.low[t]));
  assign(points, result.centroids, result.membership, threads, control);
  while (result.iterations < params.max_iterations) {
    check_cancel(control);  // update() below is serial: a round of a large input takes a while
    ++result.iterations;
    const double moved = update(points, result.membership, result.centroids);
    assign(points, result.centroids, result.membership, threads, control);
    if (moved <= params.tolerance * extent) break;
  }
  return result;
}

std::size_t resolve_k(std::size_t requested, std::size_t n, std::size_t automatic, const std::string& rule,
                      std::vector<std::string>& notes) {
  if (requested == 0) {
    notes.push_back("k chosen as " + std::to_string(automatic) + " (" + rule + ")");
    return std::min(automatic, n);
  }
  if (requested > n) {
    notes.push_back("k = " + std::to_string(requested) + " exceeds n; clamped to " + std::to_string(n));
    return n;
  }
  return requested;
}

}  // namespace simjoin
