#include "core/points/principal_basis.hpp"

#include <algorithm>
#include <random>

#include <Eigen/Dense>

namespace simjoin {

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Extra directions iterated beside those asked for, and the iterations: with 16 extra, the subspace's
// error shrinks each iteration by the ratio of the (count + 16)-th eigenvalue to the count-th.
constexpr std::size_t kOversampling = 16;
constexpr int kIterations = 4;

template <typename Matrix>
Matrix orthonormal_columns(const Matrix& columns) {
  const Eigen::HouseholderQR<Matrix> qr(columns);
  return qr.householderQ() * Matrix::Identity(columns.rows(), columns.cols());
}

Eigen::MatrixXf random_columns(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<float> normal;
  Eigen::MatrixXf columns(rows, cols);
  for (Eigen::Index c = 0; c < cols; ++c)
    for (Eigen::Index r = 0; r < rows; ++r) columns(r, c) = normal(random);
  return columns;
}

}  // namespace

PrincipalBasis top_directions(const std::vector<float>& centred, std::size_t n, std::size_t dims, std::size_t count,
                              std::uint64_t seed, const RunControl* control) {
  const auto d = Eigen::Index(dims);
  const Eigen::Map<const RowMatrix> sample(centred.data(), Eigen::Index(n), d);
  const Eigen::Index width = Eigen::Index(std::min(dims, count + kOversampling));
  Eigen::MatrixXf subspace = orthonormal_columns(random_columns(d, width, seed));
  // Products with the sample's rows, not with their d x d covariance: fewer operations where n < d.
  for (int i = 0; i < kIterations; ++i) {
    if (control) control->throw_if_cancelled();
    subspace = orthonormal_columns(Eigen::MatrixXf(sample.transpose() * (sample * subspace)));
  }
  if (control) control->throw_if_cancelled();
  // Rayleigh-Ritz: the directions within the subspace, by the eigenvectors of its small projection.
  const Eigen::MatrixXf along = sample * subspace;
  const Eigen::MatrixXf projected = along.transpose() * along / float(std::max<std::size_t>(n, 1));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXf> solver(projected);
  // Made orthonormal again in float64, where the filter's bound needs them orthonormal to its rounding.
  const Eigen::MatrixXd directions =
      orthonormal_columns(Eigen::MatrixXd((subspace * solver.eigenvectors()).cast<double>()));
  PrincipalBasis basis{count, dims, std::vector<double>(count * dims), std::vector<double>(count)};
  for (std::size_t c = 0; c < count; ++c) {
    const Eigen::Index column = width - 1 - Eigen::Index(c);  // eigenvalues ascend
    basis.variance[c] = std::max(0.0, double(solver.eigenvalues()[column]));
    for (std::size_t t = 0; t < dims; ++t) basis.rows[c * dims + t] = directions(Eigen::Index(t), column);
  }
  return basis;
}

}  // namespace simjoin
