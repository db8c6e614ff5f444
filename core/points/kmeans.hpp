#pragma once
// k-means: k-means++ seeding, then Lloyd iterations with parallel assignment. Used by KMEANS-JOIN
// and by the views that draw the partitions.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct KMeansParams {
  std::size_t k = 1;  // 1 <= k <= number of points
  std::uint64_t seed = 1;
  int max_iterations = kKMeansRounds;
  double tolerance = kKMeansSettle;  // stop when no centroid moves more than this fraction of the extent
  int threads = 0;                   // 0 uses all cores
  // Fit the centroids on this many points (at least k), evenly spread over the set (0: all of
  // them); the membership still covers every point.
  std::size_t sample = 0;
};

struct KMeansResult {
  std::vector<float> centroids;           // k x d
  std::vector<std::uint32_t> membership;  // nearest centroid of each point, for the final centroids
  int iterations = 0;
};

// Throws Error(Usage) unless 1 <= k <= points.size(); honours cancellation when control is given.
KMeansResult kmeans(const PointSet32& points, const KMeansParams& params, const RunControl* control = nullptr);

// Index of the centroid nearest to p (the lowest index on ties).
std::uint32_t nearest_centroid(const float* p, const std::vector<float>& centroids, std::size_t d);

// The k of a KMEANS-JOIN run: `requested` where given (clamped to n), else `automatic`, the engine's
// own rule, which `rule` names; each choice is explained in notes ("k chosen as ..." marks an automatic
// k for the views).
std::size_t resolve_k(std::size_t requested, std::size_t n, std::size_t automatic, const std::string& rule,
                      std::vector<std::string>& notes);

}  // namespace simjoin
