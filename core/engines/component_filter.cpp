#include "core/engines/component_filter.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <Eigen/Dense>

#include "core/numeric/lifted_bound.hpp"
#include "core/points/principal_basis.hpp"

namespace simjoin {

namespace {

// Points sampled (half from each set for A join B): 2048 give 2 M pairs, enough to see a share of
// 10^-4 (the filter pays up to about 10^-3); the directions are fitted on every kFitStep-th of them, since
// the covariance is the host's largest cost (960 dimensions: 4096 points took 0.4 s of 16 cores).
constexpr std::size_t kSamplePoints = 2048, kFitStep = 4;
// k + 1 is a multiple of 16 (the tensor-core form pads rows to 16), up to 128, and at most half of d.
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr std::size_t kLiftedStep = 16, kMaxChoices = 8;
// A candidate's re-check in all d dimensions costs about as much as this many tests of the tensor-core
// form in all d: measured on an H100, 700 to 900 for the manifold stand-ins of Gist1M's and Tiny5M's shapes
// (plain operands), about 500 for Gist1M's clusters (split operands). Rounded up, for a margin: Auto
// leaves those clusters whole (19.5 s joined whole; through 16 components, 11 s).
constexpr double kRecheckCost = 1024;
// Auto takes the filter where the sample predicts at least twice the speed, on joins of at least this
// many pair-dimensions: the tensor-core form tests about 1.3 10^14 a second (Gist1M's shape on an H100),
// so that below, the sample's host time (tens of milliseconds) weighs against what the filter can save.
constexpr double kMaxCostShare = 0.5;
constexpr double kMinWork = 0x1p45;
// Beyond this, the basis is too far from orthonormal for the bound to be worth anything.
constexpr double kMaxOrthonormalityError = 0x1p-20;

std::size_t padded(std::size_t dims) { return (dims + 15) / 16 * 16; }

// The candidate k, ascending: 15, 31, ... while k + 1 <= d / 2 and the sample has more points than k.
std::vector<std::size_t> choices(std::size_t dims, std::size_t sample) {
  std::vector<std::size_t> ks;
  for (std::size_t m = 1; m <= kMaxChoices && kLiftedStep * m <= dims / 2 && kLiftedStep * m < sample; ++m)
    ks.push_back(kLiftedStep * m - 1);
  return ks;
}

// Evenly spaced rows of `points`, appended to `values`.
void append_sample(const PointSet32& points, std::size_t count, std::vector<float>& values) {
  const std::size_t step = std::max<std::size_t>(1, points.size() / std::max<std::size_t>(count, 1));
  for (std::size_t i = 0; i < points.size() && i / step < count; i += step)
    values.insert(values.end(), points.point(i), points.point(i) + points.dims());
}

// The sample's points, centred, projected and with their residual norm for each candidate k.
struct SampleProjections {
  std::size_t n = 0, first_b = 0;              // rows [first_b, n) are b's (first_b = n for a self-join)
  std::size_t width = 0;                       // projections a row: the largest candidate k
  std::vector<float> projected;                // n x width
  std::vector<std::vector<double>> residuals;  // per candidate k, n values
  double max_norm = 0;
};

// In float32 (an estimate: the bound's margins need not hold here).
SampleProjections project_sample(const std::vector<float>& centred, std::size_t n, std::size_t first_b,
                                 const std::vector<double>& basis, std::size_t dims,
                                 const std::vector<std::size_t>& ks) {
  SampleProjections s{n, first_b, ks.back(), std::vector<float>(n * ks.back()), {}, 0};
  const Eigen::Map<const RowMatrix> rows(centred.data(), Eigen::Index(n), Eigen::Index(dims));
  const RowMatrix directions = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                                   basis.data(), Eigen::Index(s.width), Eigen::Index(dims))
                                   .cast<float>();
  Eigen::Map<RowMatrix>(s.projected.data(), Eigen::Index(n), Eigen::Index(s.width)).noalias() =
      rows * directions.transpose();
  const Eigen::VectorXf norms = rows.rowwise().squaredNorm();
  s.max_norm = std::sqrt(double(norms.maxCoeff()));
  for (const std::size_t k : ks) {
    std::vector<double>& r = s.residuals.emplace_back(n);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < k; ++j) sum += double(s.projected[i * s.width + j]) * s.projected[i * s.width + j];
      r[i] = std::sqrt(std::max(0.0, double(norms[Eigen::Index(i)]) - sum));
    }
  }
  return s;
}

// For each candidate k, the sample's pairs whose lifted points lie within limits[c] (squared); the
// sums over components grow with k, so a pair past the largest limit is past every later one. Rows
// left once `control` is cancelled are skipped (no thread may throw inside the loop); it throws after.
std::array<std::uint64_t, kMaxChoices> lifted_counts(const SampleProjections& s, const std::vector<std::size_t>& ks,
                                                     const std::vector<double>& limits, const RunControl* control) {
  std::array<std::uint64_t, kMaxChoices> counts{};
  std::uint64_t* const count = counts.data();
  const double largest = *std::max_element(limits.begin(), limits.end());
  const bool self = s.first_b == s.n;
  const std::size_t rows = self ? s.n : s.first_b;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : count[:kMaxChoices])
  for (std::size_t i = 0; i < rows; ++i) {
    if (control && control->cancelled()) continue;
    const float* p = s.projected.data() + i * s.width;
    for (std::size_t j = self ? i + 1 : s.first_b; j < s.n; ++j) {
      const float* q = s.projected.data() + j * s.width;
      double sum = 0;
      std::size_t t = 0;
      for (std::size_t c = 0; c < ks.size() && sum <= largest; ++c) {
        float part = 0;
        for (; t < ks[c]; ++t) part += (p[t] - q[t]) * (p[t] - q[t]);
        sum += part;
        const double residual = s.residuals[c][i] - s.residuals[c][j];
        if (sum + residual * residual <= limits[c]) ++count[c];
      }
    }
  }
  if (control) control->throw_if_cancelled();
  return counts;
}

// The rows the directions are fitted on: every kFitStep-th of the n x dims `values`.
std::vector<float> fitted_rows(const std::vector<float>& values, std::size_t n, std::size_t dims) {
  std::vector<float> rows;
  for (std::size_t i = 0; i < n; i += kFitStep)
    rows.insert(rows.end(), values.begin() + std::ptrdiff_t(i * dims), values.begin() + std::ptrdiff_t((i + 1) * dims));
  return rows;
}

double pair_count(const PointSet32& a, const PointSet32* b) {
  return b ? double(a.size()) * double(b->size()) : double(a.size()) * double(a.size()) / 2;
}

}  // namespace

std::string ComponentFilter::note() const {
  std::ostringstream words;
  words << std::setprecision(2) << "principal components: pairs found among the " << k
        << " top components and the residual's norm (" << lifted_dims() << " dimensions of " << dims
        << "; in a sample they let " << 100 * candidate_share << "% of pairs through), then tested in all " << dims;
  return words.str();
}

bool component_filter_considered(ComponentFilterMode mode, std::size_t dims) {
  if (mode == ComponentFilterMode::Auto) return dims >= kComponentFilterMinDims;
  return mode == ComponentFilterMode::Always && dims >= 2 * kLiftedStep;
}

std::optional<ComponentFilter> choose_component_filter(const PointSet32& a, const PointSet32* b, double radius,
                                                       ComponentFilterMode mode, std::uint64_t seed,
                                                       const RunControl* control) {
  const std::size_t dims = a.dims();
  if (!component_filter_considered(mode, dims) || a.empty() || (b && b->empty())) return std::nullopt;
  if (mode == ComponentFilterMode::Auto && pair_count(a, b) * double(padded(dims)) < kMinWork) return std::nullopt;
  std::vector<float> values;
  append_sample(a, b ? kSamplePoints / 2 : kSamplePoints, values);
  const std::size_t first_b = values.size() / dims;
  if (b) append_sample(*b, kSamplePoints / 2, values);
  const std::size_t n = values.size() / dims;
  const std::vector<std::size_t> ks = choices(dims, n);
  if (ks.empty() || n < 2) return std::nullopt;
  ComponentFilter filter;
  filter.dims = dims;
  filter.centre.assign(dims, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < dims; ++t) filter.centre[t] += values[i * dims + t] / double(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < dims; ++t) values[i * dims + t] = float(values[i * dims + t] - filter.centre[t]);
  if (control) control->throw_if_cancelled();
  const PrincipalBasis basis =
      top_directions(fitted_rows(values, n, dims), (n + kFitStep - 1) / kFitStep, dims, ks.back(), seed, control);
  const double eta = lifted::orthonormality_bound(basis.rows.data(), basis.count, dims);
  if (!(eta <= kMaxOrthonormalityError)) return std::nullopt;
  const SampleProjections s = project_sample(values, n, b ? first_b : n, basis.rows, dims, ks);
  std::vector<double> limits;
  for (const std::size_t k : ks) {
    const double r = lifted::lifted_radius(radius, s.max_norm, lifted::error_factor(k, dims, eta), k);
    limits.push_back(r * r);
  }
  if (control) control->throw_if_cancelled();
  const std::array<std::uint64_t, kMaxChoices> counts = lifted_counts(s, ks, limits, control);
  const double pairs = b ? double(first_b) * double(n - first_b) : double(n) * double(n - 1) / 2;
  std::size_t best = 0;
  double best_cost = INFINITY;
  for (std::size_t c = 0; c < ks.size(); ++c) {
    const double cost = double(ks[c] + 1) / double(padded(dims)) + kRecheckCost * double(counts[c]) / pairs;
    if (cost < best_cost) best = c, best_cost = cost;
  }
  if (mode == ComponentFilterMode::Auto && best_cost > kMaxCostShare) return std::nullopt;
  filter.k = ks[best];
  filter.basis.assign(basis.rows.begin(), basis.rows.begin() + std::ptrdiff_t(filter.k * dims));
  filter.error_factor = lifted::error_factor(filter.k, dims, eta);
  double residual_sum = 0;
  for (const double r : s.residuals[best]) residual_sum += r;
  filter.mean_residual = float(residual_sum / double(n));
  filter.candidate_share = double(counts[best]) / pairs;
  return filter;
}

}  // namespace simjoin
