#pragma once
// Seeded synthetic point sets: the distributions of ../shared/design/workloads.md and Boehm's
// correlated clusters.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin {

enum class Distribution { Uniform, Clusters, Correlated };

struct GeneratorSpec {
  Distribution kind = Distribution::Uniform;
  std::size_t n = 0;
  std::size_t dims = 2;
  std::size_t clusters = 10;  // Clusters, Correlated
  double sigma = 0.5;         // per-coordinate noise of a cluster
  double low = 0;             // coordinates (uniform) or cluster centres lie in [low, high]^d
  double high = 1;
  std::uint64_t seed = 1;
};

// uniform:    each coordinate uniform in [low, high].
// clusters:   `clusters` centres uniform in [low, high]^d; each point picks a centre uniformly and
//             adds N(0, sigma^2) to every coordinate.
// correlated: as clusters, but each cluster stretches along its own random unit direction v:
//             point = centre + sigma * (5 t v + g), t ~ N(0, 1), g ~ N(0, I) (Boehm's DS3 style).
// Each point's label is its cluster number for the clustered kinds.
PointSet generate(const GeneratorSpec& spec);

Distribution parse_distribution(const std::string& name);  // throws Error(Usage)
std::string to_string(Distribution kind);

struct Workload {
  std::string name;
  GeneratorSpec spec;
  double eps = 0;
  int k = 0;  // a good partition count for KMEANS-JOIN
};

const std::vector<Workload>& standard_workloads();
// Throws Error(Usage) listing the names when unknown.
const Workload& find_workload(const std::string& name);

}  // namespace simjoin
