#include "core/points/generators.hpp"

#include <cmath>
#include <random>

#include "core/base/error.hpp"

namespace simjoin {

namespace {
std::vector<double> random_centres(const GeneratorSpec& spec, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(spec.low, spec.high);
  std::vector<double> centres(spec.clusters * spec.dims);
  for (double& c : centres) c = uniform(rng);
  return centres;
}

std::vector<double> random_directions(const GeneratorSpec& spec, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> directions(spec.clusters * spec.dims);
  for (std::size_t c = 0; c < spec.clusters; ++c) {
    double norm = 0;
    for (std::size_t k = 0; k < spec.dims; ++k) {
      directions[c * spec.dims + k] = normal(rng);
      norm += directions[c * spec.dims + k] * directions[c * spec.dims + k];
    }
    norm = std::sqrt(norm);
    for (std::size_t k = 0; k < spec.dims; ++k) directions[c * spec.dims + k] /= norm;
  }
  return directions;
}
}  // namespace

PointSet generate(const GeneratorSpec& spec) {
  if (!(spec.low <= spec.high)) fail(ErrorKind::Usage, "generator: --low must not exceed --high");
  if (spec.kind != Distribution::Uniform && spec.clusters == 0)
    fail(ErrorKind::Usage, "generator: --clusters must be at least 1");
  if (!(spec.sigma >= 0)) fail(ErrorKind::Usage, "generator: --sigma must be >= 0");
  PointSet points(spec.n, spec.dims);
  std::mt19937_64 rng(spec.seed);
  const std::size_t d = spec.dims;
  points.source = to_string(spec.kind) + " n=" + std::to_string(spec.n) + " d=" + std::to_string(d) +
                  " seed=" + std::to_string(spec.seed);
  // Values are float32 numbers (kept in float64), so that written .npy files are float32 and reload to
  // the same values.
  if (spec.kind == Distribution::Uniform) {
    std::uniform_real_distribution<double> uniform(spec.low, spec.high);
    for (std::size_t i = 0; i < spec.n * d; ++i) points.data()[i] = float(uniform(rng));
    return points;
  }
  const std::vector<double> centres = random_centres(spec, rng);
  const std::vector<double> directions =
      spec.kind == Distribution::Correlated ? random_directions(spec, rng) : std::vector<double>{};
  std::uniform_int_distribution<std::size_t> pick(0, spec.clusters - 1);
  std::normal_distribution<double> normal(0.0, 1.0);
  points.labels.resize(spec.n);
  for (std::size_t i = 0; i < spec.n; ++i) {
    const std::size_t c = pick(rng);
    points.labels[i] = std::to_string(c);
    const double stretch = directions.empty() ? 0.0 : 5.0 * normal(rng);
    double* p = points.point(i);
    for (std::size_t k = 0; k < d; ++k) {
      const double along = directions.empty() ? 0.0 : stretch * directions[c * d + k];
      p[k] = float(centres[c * d + k] + spec.sigma * (along + normal(rng)));
    }
  }
  return points;
}

Distribution parse_distribution(const std::string& name) {
  if (name == "uniform") return Distribution::Uniform;
  if (name == "clusters") return Distribution::Clusters;
  if (name == "correlated") return Distribution::Correlated;
  fail(ErrorKind::Usage, "unknown distribution '" + name + "' (uniform, clusters, correlated)");
}

std::string to_string(Distribution kind) {
  switch (kind) {
    case Distribution::Uniform:
      return "uniform";
    case Distribution::Clusters:
      return "clusters";
    case Distribution::Correlated:
      return "correlated";
  }
  return "?";
}

const std::vector<Workload>& standard_workloads() {
  using D = Distribution;
  static const std::vector<Workload> workloads = {
      {"W1-clustered8d-500k", {D::Clusters, 500'000, 8, 10, 0.5, 0, 10, 11}, 0.5, 20},
      {"W2-uniform2d-2m", {D::Uniform, 2'000'000, 2, 0, 0, 0, 100, 12}, 0.2, 64},
      {"W3-uniform6d-2m", {D::Uniform, 2'000'000, 6, 0, 0, 0, 100, 13}, 8.0, 64},
      {"W4-uniform2d-10m", {D::Uniform, 10'000'000, 2, 0, 0, 0, 100, 14}, 0.1, 256},
      {"W5-clustered32d-1m", {D::Clusters, 1'000'000, 32, 100, 0.02, 0, 1, 15}, 0.10, 100},
  };
  return workloads;
}

const Workload& find_workload(const std::string& name) {
  std::string known;
  for (const Workload& w : standard_workloads()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  fail(ErrorKind::Usage, "unknown workload '" + name + "'; known workloads: " + known);
}

}  // namespace simjoin
