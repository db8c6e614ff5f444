#include "tests/core/manifold_sets.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace simjoin::testing {

namespace {

template <typename Shape>
PointSet latent_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                       std::uint64_t seed, Shape shape) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<double> layer(dims * hidden);
  for (double& w : layer) w = normal(random) / std::sqrt(double(hidden));
  PointSet points(n, dims);
  std::vector<double> latent(hidden);
  for (std::size_t i = 0; i < n; ++i) {
    for (double& z : latent) z = normal(random);
    for (std::size_t k = 0; k < dims; ++k) {
      double sum = 0;
      for (std::size_t h = 0; h < hidden; ++h) sum += layer[k * hidden + h] * latent[h];
      points.point(i)[k] = offset + shape(sum) + noise * normal(random);
    }
  }
  return points;
}

}  // namespace

PointSet subspace_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed) {
  return latent_points(n, dims, hidden, noise, offset, seed, [](double x) { return x; });
}

PointSet manifold_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed) {
  return latent_points(n, dims, hidden, noise, offset, seed, [](double x) { return std::tanh(x); });
}

double eps_for_neighbours(const PointSet& points, std::size_t count, std::size_t samples) {
  std::vector<double> kth;
  for (std::size_t s = 0; s < points.size(); s += std::max<std::size_t>(1, points.size() / samples)) {
    std::vector<double> distances;
    for (std::size_t j = 0; j < points.size(); ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < points.dims(); ++k) sum += std::pow(points.point(s)[k] - points.point(j)[k], 2);
      if (j != s) distances.push_back(std::sqrt(sum));
    }
    std::nth_element(distances.begin(), distances.begin() + std::ptrdiff_t(count - 1), distances.end());
    kth.push_back(distances[count - 1]);
  }
  std::nth_element(kth.begin(), kth.begin() + std::ptrdiff_t(kth.size() / 2), kth.end());
  return kth[kth.size() / 2];
}

}  // namespace simjoin::testing
