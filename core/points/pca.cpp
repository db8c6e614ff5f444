#include "core/points/pca.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "core/base/error.hpp"

namespace simjoin {

double Pca::explained(std::size_t c) const {
  const double total = std::accumulate(variance.begin(), variance.end(), 0.0);
  return total > 0 ? variance.at(c) / total : 0.0;
}

namespace {

// Rows between two cancel checks: a few milliseconds.
constexpr std::size_t kRowsPerCheck = 4096;

void check(const RunControl* control, std::size_t row) {
  if (control && row % kRowsPerCheck == 0) control->throw_if_cancelled();
}

std::vector<std::size_t> sample_rows(std::size_t n, std::size_t max_sample, std::uint64_t seed,
                                     const RunControl* control) {
  std::vector<std::size_t> rows(std::min(n, max_sample));
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  if (n <= max_sample) return rows;
  std::mt19937_64 rng(seed);
  // Partial Fisher-Yates: the first max_sample entries of 0 ... n-1 become a uniform sample. Entries
  // past them are kept only where a swap moved them, so that 10 M points need no array of 10 M.
  std::unordered_map<std::size_t, std::size_t> beyond;
  beyond.reserve(max_sample);
  for (std::size_t i = 0; i < max_sample; ++i) {
    check(control, i);
    std::uniform_int_distribution<std::size_t> pick(i, n - 1);
    const std::size_t j = pick(rng);
    if (j < max_sample)
      std::swap(rows[i], rows[j]);
    else
      std::swap(rows[i], beyond.try_emplace(j, j).first->second);
  }
  return rows;
}

void check_axis(const Pca& pca, std::size_t axis) {
  if (axis >= pca.dims)
    fail(ErrorKind::Usage, "principal component " + std::to_string(axis + 1) + " requested, data has " +
                               std::to_string(pca.dims) + " dimensions");
}

template <typename T>
Pca fit(const BasicPointSet<T>& points, std::size_t max_sample, std::uint64_t seed, const RunControl* control) {
  if (points.empty()) fail(ErrorKind::BadInput, "PCA of an empty point set");
  const std::size_t d = points.dims();
  const auto rows = sample_rows(points.size(), std::max<std::size_t>(max_sample, 1), seed, control);

  Eigen::VectorXd mean = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d));
  for (std::size_t s = 0; s < rows.size(); ++s) {
    check(control, s);
    for (std::size_t j = 0; j < d; ++j) mean[j] += double(points.point(rows[s])[j]);
  }
  mean /= static_cast<double>(rows.size());

  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(mean.size(), mean.size());
  Eigen::VectorXd centred(mean.size());
  for (std::size_t s = 0; s < rows.size(); ++s) {
    check(control, s);
    for (std::size_t j = 0; j < d; ++j) centred[j] = double(points.point(rows[s])[j]) - mean[j];
    cov.selfadjointView<Eigen::Lower>().rankUpdate(centred);
  }
  cov = cov.selfadjointView<Eigen::Lower>();
  cov /= static_cast<double>(std::max<std::size_t>(rows.size() - 1, 1));

  // Eigen returns ascending eigenvalues; the views want the largest first.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(cov);
  Pca pca;
  pca.dims = d;
  pca.sample_size = rows.size();
  pca.mean.assign(mean.data(), mean.data() + d);
  for (std::size_t c = 0; c < d; ++c) {
    const auto col = static_cast<Eigen::Index>(d - 1 - c);
    pca.variance.push_back(std::max(solver.eigenvalues()[col], 0.0));
    for (std::size_t j = 0; j < d; ++j) pca.components.push_back(solver.eigenvectors()(j, col));
  }
  return pca;
}

}  // namespace

Pca fit_pca(const PointSet& points, std::size_t max_sample, std::uint64_t seed, const RunControl* control) {
  return fit(points, max_sample, seed, control);
}

Pca fit_pca(const PointSet32& points, std::size_t max_sample, std::uint64_t seed, const RunControl* control) {
  return fit(points, max_sample, seed, control);
}

std::vector<float> project_2d(const PointSet& points, const Pca& pca, std::size_t a, std::size_t b) {
  if (points.dims() != pca.dims) fail(ErrorKind::Usage, "PCA fitted on a different dimension count");
  check_axis(pca, a);
  check_axis(pca, b);
  const std::size_t d = pca.dims;
  const double* axis_a = pca.components.data() + a * d;
  const double* axis_b = pca.components.data() + b * d;
  std::vector<float> xy(points.size() * 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    double u = 0, v = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double c = points.point(i)[j] - pca.mean[j];
      u += c * axis_a[j];
      v += c * axis_b[j];
    }
    xy[2 * i] = static_cast<float>(u);
    xy[2 * i + 1] = static_cast<float>(v);
  }
  return xy;
}

std::vector<float> select_2d(const PointSet& points, std::size_t a, std::size_t b) {
  if (a >= points.dims() || b >= points.dims())
    fail(ErrorKind::Usage, "dimension out of range: data has " + std::to_string(points.dims()));
  std::vector<float> xy(points.size() * 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    xy[2 * i] = points.point(i)[a];
    xy[2 * i + 1] = points.point(i)[b];
  }
  return xy;
}

}  // namespace simjoin
