// gpu-kmeans' cost model for k (cuda/detail/kmeans_cost.hpp), on sets just above the size where it
// runs: on many tight clusters it finds that more partitions than the formula's cut the distance tests,
// and on uniform 128-D points at an eps of a few dozen neighbours it finds that no k can prune.
#include <gtest/gtest.h>

#include <algorithm>
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

KChoice modelled(const PointSet& points, double eps, std::uint64_t seed) {
  const PointSet32 narrow(points.size(), points.dims(),
                          Coordinates<float>(points.coords().begin(), points.coords().end()));
  GpuResources resources;
  const DevicePoints device = upload_points(resources, narrow, kKMeansRowMultiple);
  RunControl control;
  return model_k(device, nullptr, points.dims(), eps, formula_k(points.size(), points.dims()), seed, control);
}

// 400 clusters of spread 0.02 in [0, 10]^8: the formula's k (3 here) leaves partitions of thousands of
// clusters; the model prices k 8 and above lower and so compares fewer pairs, and its notes say so.
TEST(KMeansCost, TightClustersGetFewerDistanceTestsThanTheFormula) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = simjoin::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const KChoice choice =
      modelled(random_points(Distribution::Clusters, kPoints, 8, seed, 0, 10, 400, 0.02), 0.05, seed);
  EXPECT_EQ(choice.sample, kKModelSample);
  const auto formula = std::find_if(choice.candidates.begin(), choice.candidates.end(),
                                    [&](const KCandidate& c) { return c.k == choice.formula; });
  ASSERT_NE(formula, choice.candidates.end()) << "the formula's k was not evaluated";
  EXPECT_GT(choice.k, choice.formula);
  EXPECT_LT(choice.chosen().compared, formula->compared);
  EXPECT_LT(choice.chosen().compared, choice.whole / 2);
  for (const KCandidate& c : choice.candidates) EXPECT_LE(choice.chosen().seconds, c.seconds) << "k " << c.k;
  std::vector<std::string> notes;
  note_k_choice(choice, notes);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].rfind("k chosen as " + std::to_string(choice.k) + " (cost model on 32768 sampled points", 0), 0u)
      << notes[0];
  EXPECT_NE(notes[1].find(std::to_string(choice.formula) + " (formula): "), std::string::npos) << notes[1];
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
  EXPECT_GT(choice.chosen().copies, double(kPoints));
  EXPECT_FALSE(choice.stopped.empty()) << "every candidate evaluated although none prunes";
}

}  // namespace
}  // namespace simjoin::gpu
