// gpu-kmeans' pruning screen (cuda/detail/kmeans_cost.hpp), on a set just above the size where it runs:
// on uniform 128-D points at an eps of a few dozen neighbours it finds that no k can prune.
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
  return model_k(device, nullptr, points.dims(), eps, formula_k(points.size(), points.dims()), 4096, seed, control);
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

}  // namespace
}  // namespace simjoin::gpu
