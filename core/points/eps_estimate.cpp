#include "core/points/eps_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "core/numeric/exact_test.hpp"
#include "core/points/kth_neighbour.hpp"

namespace simjoin {

namespace {
constexpr std::size_t kNeighbour = 10;
constexpr std::size_t kQueries = 1000;
constexpr std::uint64_t kQuerySeed = 0x5eed;

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}
}  // namespace

double round_significant(double value, int digits) {
  if (!(value > 0) || !std::isfinite(value)) return value;
  const int exponent = int(std::floor(std::log10(value))) + 1 - digits;
  // Dividing by an exact power of ten gives the double nearest to the decimal.
  if (exponent < 0) {
    const double scale = std::pow(10.0, -exponent);
    return std::isfinite(scale) ? std::round(value * scale) / scale : value;
  }
  const double unit = std::pow(10.0, exponent);
  return std::round(value / unit) * unit;
}

// A range end kept within the positive finite doubles, however far the data's scale reaches.
double representable(double value) {
  return std::clamp(value, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max());
}

double EpsEstimate::low() const { return representable(nearest > 0 ? nearest / 100 : eps / 1000); }
double EpsEstimate::high() const { return std::max(low(), representable(diameter > eps ? diameter : eps * 1000)); }

namespace {
// Data near the ends of float64's range, coordinates beyond 2^500 or spans below 2^-500, is measured
// on a copy scaled by the power of two returned (0: none): differences of values near 1e308 overflow,
// and squares of subnormal ones vanish. Scaling by a power of two is exact, and puts the largest
// coordinate or the widest span near 1.
int extreme_scale_exponent(const PointSet& points) {
  const Bounds64 bounds = compute_bounds(points);
  double largest = 0, widest = 0;
  for (std::size_t k = 0; k < points.dims(); ++k) {
    largest = std::max({largest, std::abs(bounds.low[k]), std::abs(bounds.high[k])});
    widest = std::max(widest, bounds.high[k] / 2 - bounds.low[k] / 2);
  }
  if (largest > 0x1p500) return -std::ilogb(largest);
  if (widest > 0 && widest < 0x1p-500) return -std::ilogb(widest);
  return 0;
}

EpsEstimate estimate_unrounded(const PointSet& points, RunControl& control);
}  // namespace

EpsEstimate estimate_eps(const PointSet& points, RunControl& control) {
  control.set_phase("estimating eps");
  const int exponent = points.size() < 2 ? 0 : extreme_scale_exponent(points);
  EpsEstimate estimate;
  if (exponent == 0) {
    estimate = estimate_unrounded(points, control);
  } else {
    PointSet scaled = points;
    for (std::size_t v = 0; v < scaled.size() * scaled.dims(); ++v)
      scaled.data()[v] = std::ldexp(scaled.data()[v], exponent);
    estimate = estimate_unrounded(scaled, control);
    for (double* length : {&estimate.eps, &estimate.nearest, &estimate.diameter})
      *length = std::min(std::ldexp(*length, -exponent), std::numeric_limits<double>::max());
  }
  // A positive eps however close the points: never below the smallest double.
  estimate.eps = representable(round_significant(estimate.eps, 2));
  return estimate;
}

namespace {
EpsEstimate estimate_unrounded(const PointSet& points, RunControl& control) {
  EpsEstimate estimate;
  const std::size_t n = points.size();
  if (n < 2) return estimate;
  const std::size_t d = points.dims();

  // The oracle's scaling by a power of two keeps squared distances of any magnitude finite.
  const Bounds64 bounds = compute_bounds(points);
  double widest = 0;
  for (std::size_t k = 0; k < d; ++k) widest = std::max(widest, bounds.high[k] - bounds.low[k]);
  if (widest == 0) return estimate;
  const double scale = std::ldexp(1.0, -std::ilogb(widest));
  estimate.diameter = std::sqrt(oracle_squared_distance(bounds.low.data(), bounds.high.data(), d, scale)) / scale;

  // Random rows (a fixed seed: the same file, the same suggestion) stand for the whole file however
  // it is ordered; evenly spaced ones can all fall on a lattice's edge.
  std::vector<std::size_t> rows(std::min(n, kQueries));
  std::mt19937_64 random(kQuerySeed);
  for (std::size_t q = 0; q < rows.size(); ++q)
    rows[q] = n <= kQueries ? q : std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  NeighbourDistances measured = kth_neighbour_distances(points, rows, kNeighbour, control);
  estimate.queries = measured.rows.size();
  estimate.reference = n;
  std::vector<double>& kth = measured.kth;
  const std::vector<double>& nearest = measured.nearest;
  estimate.nearest = median(nearest);

  // Where most points have ten duplicates, the typical positive distance is the useful one, and
  // where all do, a fraction of the diameter.
  double typical = median(kth);
  if (typical == 0) {
    std::vector<double> positive;
    std::copy_if(kth.begin(), kth.end(), std::back_inserter(positive), [](double v) { return v > 0; });
    typical = median(std::move(positive));
  }
  if (typical == 0) typical = estimate.diameter / 100;
  estimate.eps = typical;
  return estimate;
}
}  // namespace

}  // namespace simjoin
