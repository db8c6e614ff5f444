// gpu-kmeans' cost model (cuda/detail/kmeans_cost.hpp), on sets just above the size where it runs: on
// uniform 128-D points at an eps of a few dozen neighbours it finds that no k can prune; on unit vectors
// in tight clusters its estimate is near what the engine's partitions of the whole set compare.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cuda/detail/kmeans_cluster.hpp"
#include "cuda/detail/kmeans_cost.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::gpu {
namespace {

using simjoin::testing::random_points;

// 60,000 points: above kKModelMinPoints, so that the sample (32,768 of them) stands for a larger set.
constexpr std::size_t kPoints = 60000;

PointSet32 narrowed(const PointSet& points) {
  return PointSet32(points.size(), points.dims(), Coordinates<float>(points.coords().begin(), points.coords().end()));
}

KChoice modelled(const PointSet& points, double eps, std::uint64_t seed) {
  GpuResources resources;
  const DevicePoints device = upload_points(resources, narrowed(points), kKMeansRowMultiple);
  RunControl control;
  return model_k(device, nullptr, points.dims(), eps, formula_k(points.size(), points.dims()), 4096, seed, control);
}

// The distance tests of gpu-kmeans' partitions of the whole set at k, as the engine reports them.
double partitions_compare(const PointSet& points, std::size_t k, double eps, std::uint64_t seed) {
  JoinParams params;
  params.eps = eps;
  params.k = int(k);
  params.seed = seed;
  RunResult result;
  simjoin::testing::run_pairs(simjoin::testing::gpu_engine("gpu-kmeans"), points, nullptr, params, &result);
  EXPECT_EQ(result.stats.k, int(k));
  return double(result.stats.estimated_tests);
}

// Unit vectors around `clusters` centres uniform on the sphere, each centre plus Gaussian noise of
// `sigma` a coordinate, normalised again (scripts/unit-vector-clusters: the shape of embeddings).
PointSet unit_vector_clusters(std::size_t n, std::size_t dims, std::size_t clusters, double sigma, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  const auto normalise = [dims](double* row) {
    double norm = 0;
    for (std::size_t t = 0; t < dims; ++t) norm += row[t] * row[t];
    for (std::size_t t = 0; t < dims; ++t) row[t] /= std::sqrt(norm);
  };
  std::vector<double> centres(clusters * dims);
  for (double& c : centres) c = normal(random);
  for (std::size_t c = 0; c < clusters; ++c) normalise(&centres[c * dims]);
  Coordinates<double> coords(n * dims);
  std::uniform_int_distribution<std::size_t> pick(0, clusters - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const double* centre = &centres[pick(random) * dims];
    for (std::size_t t = 0; t < dims; ++t) coords[i * dims + t] = centre[t] + sigma * normal(random);
    normalise(&coords[i * dims]);
  }
  return PointSet(n, dims, std::move(coords));
}

// Uniform points in [0, 1]^128 at eps 3.8 (about 25 neighbours a point): every centroid's bisector band
// holds nearly every point, so each partition holds nearly the whole set, and more partitions only
// copy more; the model stops early and its cheapest k compares more pairs than the whole set holds.
TEST(KMeansCost, UniformPointsCannotPrune) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const KChoice choice = modelled(random_points(Distribution::Uniform, kPoints, 128, seed), 3.8, seed);
  EXPECT_GT(choice.chosen().compared, choice.whole);
  EXPECT_GT(choice.fewest, choice.whole);
  EXPECT_GT(choice.chosen().copies, double(kPoints));
  EXPECT_FALSE(choice.stopped.empty()) << "every candidate evaluated although none prunes";
}

// The candidates (host logic, no GPU): the formula's k first among powers of two from the largest at most a
// quarter of it, those within 1.25 of it skipped, up to an eighth of the sample and `last`.
TEST(KMeansCost, CandidatesAroundTheFormulasK) {
  using Ks = std::vector<std::size_t>;
  EXPECT_EQ(candidate_ks(32768, 250, 4096), (Ks{32, 64, 128, 250, 512, 1024, 2048, 4096}));
  EXPECT_EQ(candidate_ks(32768, 11, 4096).front(), 8u);
  EXPECT_EQ(candidate_ks(32768, 11, 16), (Ks{8, 11, 16}));
  EXPECT_EQ(candidate_ks(32768, 3, 32), (Ks{3, 8, 16, 32}));
  EXPECT_EQ(candidate_ks(1024, 250, 4096), (Ks{32, 64, 128, 250}));
  EXPECT_EQ(candidate_ks(32768, 5000, 4096).back(), 4096u);
}

// The choice (host logic): the cheapest candidate, unless the formula's is within 1.5 times of it; the
// fewest distance tests over all of them, sorted by k whatever order they were evaluated in.
TEST(KMeansCost, TheFormulasKStandsUnlessClearlyBeaten) {
  KChoice choice;
  choice.formula = 250;
  choice.candidates = {{250, 7e10, 0, 0.20}, {32, 6e11, 0, 8.0}, {512, 2e10, 0, 0.10}, {1024, 6e9, 0, 0.11}};
  KChoice settled_choice = settled(choice);
  EXPECT_EQ(settled_choice.k, 512u);
  EXPECT_EQ(settled_choice.candidates.front().k, 32u);
  EXPECT_EQ(settled_choice.fewest, 6e9);
  choice.candidates[0].seconds = 0.15;  // within 1.5 times of k 512's 0.10
  EXPECT_EQ(settled(choice).k, 250u);
  EXPECT_EQ(settled(KChoice{}).k, 0u);
}

// 600 tight clusters of unit vectors in 128-D at eps 0.09 (W6's shape at 60,000 points): at the formula's k
// (61, about ten clusters a centroid) the model's estimated distance tests are within a factor of 3 of
// what the whole set's partitions compare. Rows alone as centres, without the Lloyd rounds, estimated
// hundreds of times too many there.
TEST(KMeansCost, EstimatesWhatThePartitionsOfTightClustersCompare) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const double eps = 0.09;
  const PointSet points = unit_vector_clusters(kPoints, 128, 600, 0.0042, seed);
  const KChoice choice = modelled(points, eps, seed);
  const auto formula = std::find_if(choice.candidates.begin(), choice.candidates.end(),
                                    [&](const KCandidate& c) { return c.k == choice.formula; });
  ASSERT_NE(formula, choice.candidates.end()) << "the formula's k was not evaluated: " << choice.stopped;
  const double compared = partitions_compare(points, choice.formula, eps, seed);
  EXPECT_GT(compared, 0);
  EXPECT_LT(formula->compared, 3 * compared) << "k " << choice.formula;
  EXPECT_GT(formula->compared, compared / 3) << "k " << choice.formula;
  EXPECT_LT(choice.fewest, choice.whole / 4);
}

}  // namespace
}  // namespace simjoin::gpu
