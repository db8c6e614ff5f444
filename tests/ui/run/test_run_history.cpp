// RunHistoryModel and RunCompareModel show what the runs measured; verify_run finds missing pairs,
// in full and on a sample.
#include <QTest>

#include "core/base/error.hpp"
#include "core/report/verify.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/run/run_execution.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/run/run_verify.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::make_request;
using simjoin::ui::testing::test_registry;

namespace {
RunRecordPtr run(const RunRequest& request, std::uint64_t id) {
  RunControl control;
  return std::make_shared<const RunRecord>(execute_run(test_registry(), request, control, id));
}
}  // namespace

class TestRunHistory : public QObject {
  Q_OBJECT

 private slots:
  void historyShowsEachRunsNumbers() {
    RunHistoryModel model;
    const auto points = clustered_points(1500, 3);
    std::vector<RunRecordPtr> runs;
    std::uint64_t id = 1;
    for (const std::string engine : {"cpu-bruteforce", "cpu-grid", "cpu-kmeans"}) {
      if (!test_registry().find(engine)) continue;
      RunRequest request = make_request(engine, points, 0.3);
      request.params.k = 6;
      runs.push_back(run(request, id++));
      model.addRun(runs.back());
    }
    QCOMPARE(model.rowCount(), int(runs.size()));
    const int pairs = model.columnOf("Pairs"), engine = model.columnOf("Engine");
    const int ratio = model.columnOf("Compared ratio"), replicated = model.columnOf("Replicated");
    QVERIFY(pairs >= 0 && engine >= 0 && ratio >= 0 && replicated >= 0);
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*points, nullptr, 0.3);
    for (int row = 0; row < model.rowCount(); ++row) {
      const RunRecord& record = *runs[std::size_t(row)];
      const RunStats& stats = record.result.stats;
      QCOMPARE(model.data(model.index(row, engine)).toString().toStdString(), stats.engine);
      // The row shows the run's own count, and the run found exactly the oracle's pairs.
      QVERIFY(record.pairs.has_value());
      QCOMPARE(model.data(model.index(row, pairs), Qt::UserRole).toULongLong(), std::uint64_t(record.pairs->size()));
      QCOMPARE(stats.pairs, std::uint64_t(record.pairs->size()));
      const VerifyReport report = compare_pairs(*record.pairs, expected);
      QVERIFY2(report.ok(), report.summary().c_str());
      QCOMPARE(model.data(model.index(row, ratio), Qt::UserRole).toDouble(), stats.compared_ratio());
      QCOMPARE(model.data(model.index(row, replicated), Qt::UserRole).toULongLong(), stats.replicated_points);
      // Every phase the run timed has a column holding its time.
      for (const PhaseTime& phase : stats.phases) {
        const int column = model.columnOf(QString::fromStdString(phase.name) + " (s)");
        QVERIFY2(column >= 0, phase.name.c_str());
        QCOMPARE(model.data(model.index(row, column), Qt::UserRole).toDouble(), phase.seconds);
      }
    }

    RunCompareModel compare;
    compare.setRuns(runs);
    QCOMPARE(compare.columnCount(), int(runs.size()));
    QCOMPARE(compare.rowCount(), model.columnCount());
    for (int row = 0; row < compare.rowCount(); ++row)
      for (int column = 0; column < compare.columnCount(); ++column)
        QCOMPARE(compare.data(compare.index(row, column), Qt::UserRole),
                 model.data(model.index(column, row), Qt::UserRole));

    model.removeRun(0);
    QCOMPARE(model.rowCount(), int(runs.size()) - 1);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void verifyPassesAGoodRunInFull() {
    const auto points = clustered_points(1200, 4, 1);
    const auto record = run(make_request("cpu-bruteforce", points, 0.5), 1);
    RunControl control;
    const VerifyOutcome outcome = verify_run(test_registry(), *record, {}, control);
    QVERIFY(!outcome.sampled);
    QCOMPARE(outcome.points_a, points->size());
    QVERIFY2(outcome.report.ok(), outcome.summary().c_str());
  }

  void verifyFindsMissingPairs_data() {
    QTest::addColumn<bool>("sampled");
    QTest::newRow("full") << false;
    QTest::newRow("sampled") << true;
  }

  void verifyFindsMissingPairs() {
    QFETCH(bool, sampled);
    const auto points = clustered_points(3000, 2, 2);
    const double eps = 0.4;
    const auto record = run(make_request("test-drop-pairs", points, eps), 1);
    VerifyOptions options;
    options.max_points = sampled ? 1000 : 5000;
    options.seed = simjoin::ui::testing::seed();
    RunControl control;
    const VerifyOutcome outcome = verify_run(test_registry(), *record, options, control);
    QCOMPARE(outcome.sampled, sampled);
    QVERIFY(!outcome.report.ok());
    QVERIFY(outcome.report.extra.empty());
    // What the engine kept plus what verification found missing is the whole oracle result.
    if (!sampled) {
      const std::size_t expected = simjoin::testing::oracle_pairs(*points, nullptr, eps).size();
      QCOMPARE(outcome.report.missing.size() + record->pairs->size(), expected);
    }
    QVERIFY(outcome.summary().find("MISMATCH") != std::string::npos);
  }

  void verifySamplesAJoinB() {
    auto request = make_request("cpu-grid", clustered_points(2500, 3, 3), 0.6);
    if (!test_registry().find("cpu-grid")) request.engine = "cpu-bruteforce";
    request.b = clustered_points(2000, 3, 4);
    request.keep_pairs_limit = 0;
    const auto record = run(request, 1);
    VerifyOptions options;
    options.max_points = 800;
    RunControl control;
    const VerifyOutcome outcome = verify_run(test_registry(), *record, options, control);
    QVERIFY(outcome.sampled);
    QCOMPARE(outcome.points_a, std::size_t(800));
    QCOMPARE(outcome.points_b, std::size_t(800));
    QVERIFY2(outcome.report.ok(), outcome.summary().c_str());
  }

  void samplePointsKeepsRows() {
    const auto points = clustered_points(500, 3, 5);
    const PointSet sample = sample_points(*points, 100, simjoin::ui::testing::seed());
    QCOMPARE(sample.size(), std::size_t(100));
    // Every sampled row is a row of the input, each used once.
    std::vector<bool> used(points->size(), false);
    for (std::size_t r = 0; r < sample.size(); ++r) {
      std::size_t match = points->size();
      for (std::size_t p = 0; p < points->size() && match == points->size(); ++p)
        if (!used[p] && std::equal(sample.point(r), sample.point(r) + 3, points->point(p))) match = p;
      QVERIFY(match < points->size());
      used[match] = true;
    }
  }

  void verifyRejectsUnknownReference() {
    const auto record = run(make_request("cpu-bruteforce", clustered_points(50, 2), 0.5), 1);
    VerifyOptions options;
    options.reference = "no-such-engine";
    RunControl control;
    QVERIFY_THROWS_EXCEPTION(Error, verify_run(test_registry(), *record, options, control));
  }
};

QTEST_GUILESS_MAIN(TestRunHistory)
#include "test_run_history.moc"
