// The step-through's counters after its last step equal the statistics of the engine it replays
// (cpu-kmeans, cpu-grid, cpu-nlj) on the same sampled points, on fresh random data and on the samples.
#include <QtTest>

#include "core/base/error.hpp"
#include "core/points/generators.hpp"
#include "core/run/run_engine.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/samples.hpp"
#include "ui/step_through/join_steps.hpp"
#include "ui/views/picking.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
RunResult run_engine_on(const char* name, const PointSet& points, double eps, int k) {
  EngineRegistry registry;
  register_cpu_engines(registry);
  JoinParams params;
  params.eps = eps;
  params.k = k;
  params.threads = 1;
  CountSink sink;
  RunControl control;
  return run_engine(registry.get(name), {&points, nullptr}, params, sink, control);
}

void compare_kmeans(const PointSet& points, double eps, std::size_t k) {
  const StepThrough run = kmeans_join_steps(points, eps, k);
  QCOMPARE(run.points.size(), std::min(points.size(), kMaxStepPoints));
  const RunResult engine = run_engine_on("cpu-kmeans", run.points, run.eps, int(k));
  const StepCounters& counters = run.final_counters();
  QCOMPARE(counters.distance_tests, engine.stats.compared_pairs);
  QCOMPARE(counters.pairs, engine.stats.pairs);
  QCOMPARE(counters.copies, engine.stats.replicated_points);
  QVERIFY(counters.candidates >= counters.pairs);
  const PartitionStructure& parts = *engine.partitions;
  QCOMPARE(int(run.rounds.size()) - 1, parts.iterations);
  QCOMPARE(run.rounds.back().membership, parts.membership);
  QCOMPARE(run.rounds.back().centroids, parts.centroids);
  QCOMPARE(run.copy_point, parts.replica_point);
  QCOMPARE(run.copy_partition, parts.replica_partition);
}

void compare_grid(const PointSet& points, double eps) {
  const StepThrough run = grid_join_steps(points, eps);
  const RunResult engine = run_engine_on("cpu-grid", run.points, run.eps, 0);
  QCOMPARE(run.final_counters().distance_tests, engine.stats.compared_pairs);
  QCOMPARE(run.final_counters().pairs, engine.stats.pairs);
  QCOMPARE(run.steps.size(), engine.grid->cell_count());  // one step per cell, each visited once
}

void compare_inlj(const PointSet& points, double eps) {
  const StepThrough run = inlj_steps(points, eps);
  const RunResult engine = run_engine_on("cpu-nlj", run.points, run.eps, 0);
  QCOMPARE(run.final_counters().distance_tests, engine.stats.compared_pairs);
  QCOMPARE(run.final_counters().pairs, engine.stats.pairs);
  QVERIFY(run.chunks % 2 == 1);
  QVERIFY(run.chunks * run.chunk_points >= run.points.size());
  QCOMPARE(run.steps.size(), (run.chunks - 1) / 2 + 1);  // round 0, then half the chunks
}
}  // namespace

class TestStepThrough : public QObject {
  Q_OBJECT

 private slots:
  void kmeansJoinCountsAreTheEngines() {
    const auto points = testing::clustered_points(1200, 3, 5);
    for (std::size_t k : {1, 4, 9}) compare_kmeans(*points, 0.6, k);
    compare_kmeans(load_sample("blobs2d"), 0.2, 6);  // 3,000 points, sampled to 1,500
    compare_kmeans(load_sample("iris"), 0.3, 3);
  }

  void gridJoinCountsAreTheEngines() {
    compare_grid(*testing::clustered_points(1000, 2, 6), 0.3);
    compare_grid(load_sample("spiral3d"), 0.15);
    compare_grid(load_sample("globe3d"), 300);
  }

  void inljCountsAreTheNestedLoops() {
    compare_inlj(*testing::clustered_points(1000, 3, 8), 0.4);  // 8 chunks of 128, padded to 9
    compare_inlj(*testing::clustered_points(700, 5, 9), 0.8);   // 6 chunks of 128, padded to 7
    compare_inlj(load_sample("blobs2d"), 0.2);                  // sampled to 1,500: 12 chunks, padded to 13
    compare_inlj(load_sample("iris"), 0.3);
    compare_inlj(*testing::clustered_points(3, 2, 10), 0.5);  // fewer points than a chunk
  }

  void inljRoundsMeetEveryPairOfChunksOnce() {
    const StepThrough run = inlj_steps(*testing::clustered_points(1500, 2, 11), 0.3);
    QCOMPARE(run.chunk_points, std::size_t(128));
    QCOMPARE(run.chunks, std::size_t(13));
    std::vector<int> met(run.chunks * run.chunks, 0);
    for (const JoinStep& step : run.steps)
      for (std::size_t b = 0; b < run.chunks; ++b) {
        const std::size_t c = (b + step.state) % run.chunks;
        ++met[std::min(b, c) * run.chunks + std::max(b, c)];
      }
    for (std::size_t b = 0; b < run.chunks; ++b)
      for (std::size_t c = b; c < run.chunks; ++c) QCOMPARE(met[b * run.chunks + c], 1);
    QVERIFY(run.steps[1].text.find("block b loads chunk (b + 1) mod 13") != std::string::npos);
  }

  // Beyond 1,500 points, the region around the densest point, with eps scaled so that its points have
  // as many neighbours as the file's: the pair of that rank among the region's pairs sets it.
  void samplingKeepsADenseRegionAndTheNeighbourCount() {
    const PointSet points = load_sample("blobs2d");
    const StepThrough run = grid_join_steps(points, 0.1);
    QVERIFY(run.sampled());
    QCOMPARE(run.total_points, points.size());
    QCOMPARE(run.rows.size(), kMaxStepPoints);
    QVERIFY(std::is_sorted(run.rows.begin(), run.rows.end()));
    for (std::size_t i = 0; i < run.rows.size(); ++i) QCOMPARE(run.points.point(i)[1], points.point(run.rows[i])[1]);
    const DensityProbe probe = probe_density(points, 0.1);
    const auto d2 = [&](std::uint32_t a, std::uint32_t b) {
      double sum = 0;
      for (std::size_t k = 0; k < points.dims(); ++k) sum += std::pow(points.point(a)[k] - points.point(b)[k], 2);
      return sum;
    };
    std::vector<bool> kept(points.size(), false);
    double farthest_kept = 0, nearest_left = 1e300;
    for (std::uint32_t r : run.rows) kept[r] = true;
    for (std::uint32_t i = 0; i < points.size(); ++i) {
      if (kept[i])
        farthest_kept = std::max(farthest_kept, d2(probe.densest, i));
      else
        nearest_left = std::min(nearest_left, d2(probe.densest, i));
    }
    QVERIFY(farthest_kept <= nearest_left);  // the nearest points to the densest one: a region
    const std::size_t m = run.points.size();
    const auto wanted = std::uint64_t(std::llround(probe.mean_neighbours * double(m) / 2));
    const std::uint64_t pairs = run.final_counters().pairs;
    QVERIFY2(pairs == wanted || pairs + 1 == wanted,
             qPrintable(QString("%1 pairs at eps %2, %3 wanted").arg(pairs).arg(run.eps).arg(wanted)));
    QVERIFY(run.notes.front().find("scaled to") != std::string::npos);
  }

  // KMEANS-JOIN's region reaches wider: every 16th of the 24,000 points nearest to the densest one, so
  // that it shows the data around that spot; GPU-SJ's stays the 1,500 nearest. On fresh clusters.
  void kmeansRegionIsEvery16thOfAWiderOne() {
    const PointSet points = generate({Distribution::Clusters, 40'000, 2, 30, 0.03, 0, 1, testing::seed()});
    const double eps = 0.004;
    const StepThrough wide = sample_for_steps(points, eps, kKMeansStepSpread);
    const StepThrough near = sample_for_steps(points, eps, kGridStepSpread);
    const DensityProbe probe = probe_density(points, eps);
    // How many of the file's points lie no farther from the densest point than the farthest of `run`.
    const auto within_reach = [&](const StepThrough& run) {
      const auto d2 = [&](std::uint32_t i) {
        return squared_distance(points.point(probe.densest), points.point(i), 2);
      };
      double reach = 0;
      for (std::uint32_t r : run.rows) reach = std::max(reach, d2(r));
      std::size_t count = 0;
      for (std::uint32_t i = 0; i < points.size(); ++i) count += d2(i) <= reach;
      return count;
    };
    QCOMPARE(wide.points.size() + wide.far_left_out, kMaxStepPoints);
    QCOMPARE(within_reach(near), kMaxStepPoints);
    const std::size_t reach = within_reach(wide);
    QVERIFY2(reach > 20'000 && reach <= 16 * kMaxStepPoints, qPrintable(QString::number(reach)));
    QVERIFY(wide.notes.front().find("Every 16th of the 24000 points nearest") != std::string::npos);
    QVERIFY(wide.eps > near.eps);  // fewer points in the same neighbourhood: a wider eps for as many neighbours
  }

  void kmeansStepsFollowTheAlgorithm() {
    const StepThrough run = kmeans_join_steps(*testing::clustered_points(800, 2, 7), 0.5, 5);
    // The rounds, then one replication and one join step per partition, counters never falling.
    QCOMPARE(run.steps.size(), run.rounds.size() + 2 * run.k);
    QCOMPARE(run.steps.front().counters.distance_tests, std::uint64_t(0));
    for (std::size_t s = 1; s < run.steps.size(); ++s) {
      QVERIFY(run.steps[s].counters.distance_tests >= run.steps[s - 1].counters.distance_tests);
      QVERIFY(run.steps[s].counters.pairs >= run.steps[s - 1].counters.pairs);
    }
    QVERIFY(run.steps[run.rounds.size() - 1].text.find("Lloyd stops") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(Error, kmeans_join_steps(*testing::clustered_points(10, 2), 0.5, 11));
  }
};

QTEST_GUILESS_MAIN(TestStepThrough)
#include "test_step_through.moc"
