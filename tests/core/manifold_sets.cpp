#include "tests/core/manifold_sets.hpp"

#include <cmath>
#include <random>
#include <vector>

namespace simjoin::testing {

PointSet manifold_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed) {
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
      points.point(i)[k] = offset + std::tanh(sum) + noise * normal(random);
    }
  }
  return points;
}

}  // namespace simjoin::testing
