#include "core/eps_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "core/exact_test.hpp"
#include "core/parallel.hpp"

namespace simjoin {

namespace {
constexpr std::size_t kNeighbour = 10;
constexpr std::size_t kQueries = 2000;
constexpr std::size_t kMinReference = 500;
// Distance terms (queries x reference points x dimensions) measured at most: well under a second.
constexpr double kTerms = 2e8;

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

double EpsEstimate::low() const { return nearest > 0 ? nearest / 100 : eps / 1000; }
double EpsEstimate::high() const { return diameter > eps ? diameter : eps * 1000; }

EpsEstimate estimate_eps(const PointSet& points, RunControl& control) {
  control.set_phase("estimating eps");
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

  const std::size_t wanted = std::max(kMinReference, std::size_t(kTerms / double(kQueries * d)));
  const PointSet sample = n > wanted ? sample_points(points, wanted, 1) : PointSet();
  const PointSet& reference = n > wanted ? sample : points;
  const std::size_t m = reference.size();
  const std::size_t queries =
      std::min({m, kQueries, std::max<std::size_t>(100, std::size_t(kTerms / double(m * d)))});
  // A sample of m of the n points holds about m/n of each point's neighbours: its rank 10 m / n
  // stands for the 10th neighbour of the whole set.
  const std::size_t rank = std::clamp<std::size_t>(
      std::size_t(std::llround(double(kNeighbour) * double(m - 1) / double(n - 1))), 1, m - 1);

  std::vector<double> kth(queries), nearest(queries);
  parallel_for_each(queries, 0, control, [&](std::size_t q) {
    const std::size_t row = q * m / queries;
    std::vector<double> squared;
    squared.reserve(m - 1);
    for (std::size_t j = 0; j < m; ++j)
      if (j != row) squared.push_back(oracle_squared_distance(reference.point(row), reference.point(j), d, scale));
    const auto at_rank = squared.begin() + std::ptrdiff_t(rank - 1);
    std::nth_element(squared.begin(), at_rank, squared.end());
    kth[q] = std::sqrt(*at_rank) / scale;
    nearest[q] = std::sqrt(*std::min_element(squared.begin(), at_rank + 1)) / scale;
  });
  estimate.queries = queries;
  estimate.reference = m;
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
  estimate.eps = round_significant(typical, 2);
  return estimate;
}

}  // namespace simjoin
