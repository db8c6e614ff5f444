// The auto engine picks by n, d and eps, says so in the notes, and its choice is still exact; given a
// GPU chooser, it takes that chooser's choice where its GPU is available.
#include <memory>

#include "core/engines/choosing_engine.hpp"
#include "core/engines/cpu_auto.hpp"
#include "core/engines/cpu_bruteforce.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
struct Expectation {
  std::size_t n, d;
  double eps;
  std::string engine;
};
}  // namespace

class AutoChoice : public ::testing::TestWithParam<Expectation> {};

TEST_P(AutoChoice, PicksAndExplains) {
  const auto& [n, d, eps, expected] = GetParam();
  const std::uint64_t seed = test_seed() + n + d;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, n, d, seed, 0, 1, 5, 0.05);
  CpuAutoEngine engine;
  EXPECT_EQ(engine.choose({&points, nullptr}, eps).engine->name(), expected);
  JoinParams params;
  params.eps = eps;
  params.seed = seed;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, params, &result));
  ASSERT_FALSE(result.stats.notes.empty());
  EXPECT_EQ(result.stats.notes.front().rfind("auto chose " + expected + ": ", 0), 0u) << result.stats.notes.front();
}

INSTANTIATE_TEST_SUITE_P(Inputs, AutoChoice,
                         ::testing::Values(Expectation{500, 3, 0.05, "cpu-nlj"},      // tiny n
                                           Expectation{4000, 2, 0.02, "cpu-grid"},    // low d
                                           Expectation{4000, 16, 0.1, "cpu-kmeans"},  // mid d
                                           Expectation{4000, 3, 5.0, "cpu-nlj"},      // huge eps
                                           Expectation{3500, 70, 0.3, "cpu-nlj"}),    // high d
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) + "_d" + std::to_string(info.param.d) + "_case" +
                                  std::to_string(info.index);
                         });

// Whether eps spans the data is read from the first rows where they answer it, and from every row
// where they do not: a far point in the last row still counts.
TEST(JoinShape, WidestExtentSeesEveryRowWhereTheFirstRowsFitInTwoEps) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const double eps = 1.0;
  PointSet points = random_points(Distribution::Uniform, 20000, 2, seed, 0, 1);
  EXPECT_LE(join_shape({&points, nullptr}, eps).widest, 2 * eps);
  points.point(points.size() - 1)[1] = 1e6;
  EXPECT_GE(join_shape({&points, nullptr}, eps).widest, 1e6 - 1);
  EXPECT_EQ(CpuAutoEngine().choose({&points, nullptr}, eps).engine->name(), "cpu-grid");
}

TEST(JoinShape, WidestExtentAboveTwoEpsFromTheFirstRows) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 20000, 3, seed, 0, 100);
  const double eps = 0.5;
  const double widest = join_shape({&points, nullptr}, eps).widest;
  EXPECT_GT(widest, 2 * eps);
  EXPECT_LE(widest, 100);
}

namespace {
// Stands in for gpu-auto: always picks its brute force, with its GPU available or not as told.
class StubChooser final : public ChoosingEngine {
 public:
  explicit StubChooser(bool available) : available_(available) {}
  std::string name() const override { return "stub-auto"; }
  std::string description() const override { return "a chooser for the test"; }
  Capabilities capabilities() const override { return {}; }
  Availability availability() const override { return {available_, available_ ? "" : "no GPU here"}; }
  using ChoosingEngine::choose;
  Choice choose(const JoinShape&) const override { return {bruteforce_.get(), "the stub's pick"}; }

 private:
  bool available_;
  std::unique_ptr<Engine> bruteforce_ = std::make_unique<CpuBruteForceEngine>();
};
}  // namespace

TEST(AutoPreference, TakesTheGivenChoosersChoiceWhereItsGpuIsAvailable) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 4000, 2, seed, 0, 1, 5, 0.05);
  const double eps = 0.02;
  const StubChooser present(true), absent(false);
  const ChoosingEngine::Choice preferred = CpuAutoEngine(&present).choose({&points, nullptr}, eps);
  EXPECT_EQ(preferred.engine->name(), "cpu-bruteforce");
  EXPECT_EQ(preferred.reason, "a GPU is present; the stub's pick");
  EXPECT_EQ(CpuAutoEngine(&absent).choose({&points, nullptr}, eps).engine->name(), "cpu-grid");
  EXPECT_EQ(CpuAutoEngine().choose({&points, nullptr}, eps).engine->name(), "cpu-grid");

  // The registry's `auto` is given the chooser when the CPU engines are registered, and runs its pick.
  EngineRegistry registry;
  register_cpu_engines(registry, &present);
  JoinParams params;
  params.eps = eps;
  params.seed = seed;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(registry.get("auto"), points, nullptr, params, &result));
  ASSERT_FALSE(result.stats.notes.empty());
  EXPECT_EQ(result.stats.notes.front().rfind("auto chose cpu-bruteforce: a GPU is present; ", 0), 0u)
      << result.stats.notes.front();
}
