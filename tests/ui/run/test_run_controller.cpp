// RunController: runs complete off the GUI thread, cancel is prompt, the event loop keeps ticking,
// auto-run debounces and drops stale results, failures arrive as messages.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/run/run_controller.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::make_request;
using simjoin::ui::testing::test_registry;

namespace {
// Large enough that the oracle needs well over a second on two cores.
std::shared_ptr<const PointSet> slow_input() { return clustered_points(60000, 16, 7); }
}  // namespace

class TestRunController : public QObject {
  Q_OBJECT

 private slots:
  void runCompletesAndStatsReachListener() {
    RunController controller(test_registry());
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy progress(&controller, &RunController::runProgress);
    QSignalSpy finished(&controller, &RunController::runFinished);
    const auto points = clustered_points(3000, 3);
    const double eps = 0.4;
    const quint64 id = controller.start(make_request("cpu-bruteforce", points, eps));
    QVERIFY(controller.running());
    QVERIFY(finished.wait(30000));
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(0).toULongLong(), id);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toULongLong(), id);
    QVERIFY(!controller.running());

    const auto record = finished.at(0).at(1).value<RunRecordPtr>();
    QVERIFY(record);
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*points, nullptr, eps);
    QVERIFY(!expected.empty());
    QCOMPARE(record->id, id);
    QCOMPARE(record->result.stats.engine, std::string("cpu-bruteforce"));
    QCOMPARE(record->result.stats.pairs, std::uint64_t(expected.size()));
    QCOMPARE(record->result.stats.eps, eps);
    QVERIFY(record->result.stats.seconds_total > 0);
    QVERIFY(record->pairs.has_value());
    QVERIFY(*record->pairs == expected);

    double last = -1;
    for (const QList<QVariant>& signal : progress) {
      QCOMPARE(signal.at(0).toULongLong(), id);
      const double fraction = signal.at(1).toDouble();
      QVERIFY(fraction >= last && fraction <= 1.0);
      last = fraction;
    }
  }

  void pairsAreNotKeptPastTheLimit() {
    RunController controller(test_registry());
    QSignalSpy finished(&controller, &RunController::runFinished);
    const auto points = clustered_points(2000, 2);
    RunRequest request = make_request("cpu-bruteforce", points, 1.0);
    const std::uint64_t expected = simjoin::testing::oracle_pairs(*points, nullptr, 1.0).size();
    QVERIFY(expected > 10);
    request.keep_pairs_limit = expected - 1;
    controller.start(request);
    QVERIFY(finished.wait(30000));
    const auto record = finished.at(0).at(1).value<RunRecordPtr>();
    QCOMPARE(record->result.stats.pairs, expected);
    QVERIFY(!record->pairs.has_value());
  }

  void largeResultWaitsForConfirmation() {
    RunController controller(test_registry());
    QSignalSpy confirm(&controller, &RunController::runNeedsConfirmation);
    QSignalSpy finished(&controller, &RunController::runFinished);
    const auto points = clustered_points(2000, 2);
    RunRequest request = make_request("cpu-grid", points, 1.0);
    const std::uint64_t expected = simjoin::testing::oracle_pairs(*points, nullptr, 1.0).size();
    // Above the limit: no run, and the estimate (exact for a set no larger than its sample).
    request.confirm_above_pairs = double(expected) - 1;
    const quint64 id = controller.start(request);
    QVERIFY(confirm.wait(30000));
    QCOMPARE(confirm.at(0).at(0).toULongLong(), id);
    QCOMPARE(confirm.at(0).at(1).toDouble(), double(expected));
    QVERIFY(!controller.running());
    QCOMPARE(finished.count(), 0);
    // At the limit, or confirmed (0), it runs.
    for (const double limit : {double(expected), 0.0}) {
      request.confirm_above_pairs = limit;
      controller.start(request);
      QVERIFY(finished.wait(30000));
      QCOMPARE(finished.last().at(1).value<RunRecordPtr>()->result.stats.pairs, expected);
    }
    QCOMPARE(confirm.count(), 1);
  }

  void cancelStopsWithin100ms() {
    RunController controller(test_registry());
    QSignalSpy progress(&controller, &RunController::runProgress);
    QSignalSpy cancelled(&controller, &RunController::runCancelled);
    QSignalSpy finished(&controller, &RunController::runFinished);
    const quint64 id = controller.start(make_request("cpu-bruteforce", slow_input(), 0.5));
    // Wait until the engine is inside its join loop.
    QVERIFY(progress.wait(30000));
    QVERIFY(finished.isEmpty());
    QElapsedTimer clock;
    clock.start();
    controller.cancel();
    QVERIFY(cancelled.wait(5000));
    const qint64 ms = clock.elapsed();
    qInfo("cancel took %lld ms", static_cast<long long>(ms));
    QVERIFY2(ms < 100, qPrintable(QString("cancel took %1 ms").arg(ms)));
    QCOMPARE(cancelled.at(0).at(0).toULongLong(), id);
    QVERIFY(finished.isEmpty());
    QVERIFY(!controller.running());
  }

  void eventLoopStaysResponsiveDuringRun() {
    RunController controller(test_registry());
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy progress(&controller, &RunController::runProgress);
    QElapsedTimer clock;
    qint64 last_tick = -1, max_gap = 0;
    int ticks = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(10);
    connect(&ticker, &QTimer::timeout, [&] {
      const qint64 now = clock.elapsed();
      if (last_tick >= 0) max_gap = std::max(max_gap, now - last_tick);
      last_tick = now;
      ++ticks;
    });
    const auto points = clustered_points(40000, 8, 3);  // about 1.4 s on 2 cores: 20 ticks even where 5x faster
    clock.start();
    ticker.start();
    controller.start(make_request("cpu-bruteforce", points, 0.5));
    QVERIFY(finished.wait(60000));
    ticker.stop();
    qInfo("run took %lld ms, %d ticks, max gap %lld ms, %lld progress signals", static_cast<long long>(clock.elapsed()),
          ticks, static_cast<long long>(max_gap), static_cast<long long>(progress.count()));
    QVERIFY2(ticks >= 20, "the run was too short to measure responsiveness");
    QVERIFY2(max_gap < 50, qPrintable(QString("event loop stalled %1 ms").arg(max_gap)));
  }

  void autoRunDebouncesAndDropsStaleResults() {
    RunController controller(test_registry());
    controller.setAutoRun(true);
    controller.setDebounceMs(80);
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy progress(&controller, &RunController::runProgress);
    QSignalSpy cancelled(&controller, &RunController::runCancelled);

    // A slow run starts after the debounce...
    controller.setRequest(make_request("cpu-bruteforce", slow_input(), 0.5));
    QVERIFY(started.wait(2000));
    const quint64 stale = started.at(0).at(0).toULongLong();
    QVERIFY(progress.wait(30000));
    // ... then quick parameter changes supersede it; only the last one runs.
    const auto small = clustered_points(1500, 2, 11);
    for (double eps : {0.1, 0.2, 0.3}) {
      controller.setRequest(make_request("cpu-bruteforce", small, eps));
      QTest::qWait(20);
    }
    QVERIFY(finished.wait(30000));
    QTest::qWait(200);  // let anything stale that was still queued arrive
    QCOMPARE(started.count(), 2);
    const quint64 fresh = started.at(1).at(0).toULongLong();
    QVERIFY(fresh != stale);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toULongLong(), fresh);
    const auto record = finished.at(0).at(1).value<RunRecordPtr>();
    QCOMPARE(record->request.params.eps, 0.3);
    QCOMPARE(record->result.stats.pairs, std::uint64_t(simjoin::testing::oracle_pairs(*small, nullptr, 0.3).size()));
    QVERIFY(cancelled.isEmpty());  // the stale run's cancellation is not reported
    const qsizetype stale_signals = std::count_if(progress.begin(), progress.end(), [&](const auto& s) {
      return s.at(0).toULongLong() != stale && s.at(0).toULongLong() != fresh;
    });
    QCOMPARE(stale_signals, qsizetype(0));
  }

  void failuresArriveAsMessages_data() {
    QTest::addColumn<QString>("engine");
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("fallback");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("gpu out of memory") << "test-gpu-oom" << int(ErrorKind::OutOfMemory) << true << "out of memory";
    QTest::newRow("gpu missing") << "test-gpu-missing" << int(ErrorKind::Unavailable) << true << "no CUDA device found";
    QTest::newRow("unknown engine") << "no-such-engine" << int(ErrorKind::Usage) << false << "cpu-bruteforce";
  }

  void failuresArriveAsMessages() {
    QFETCH(QString, engine);
    QFETCH(int, kind);
    QFETCH(bool, fallback);
    QFETCH(QString, mentions);
    RunController controller(test_registry());
    QSignalSpy failed(&controller, &RunController::runFailed);
    QSignalSpy finished(&controller, &RunController::runFinished);
    const quint64 id = controller.start(make_request(engine.toStdString(), clustered_points(100, 2), 0.1));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(0).at(0).toULongLong(), id);
    const auto failure = failed.at(0).at(1).value<RunFailure>();
    QCOMPARE(int(failure.kind), kind);
    QCOMPARE(failure.cpu_fallback, fallback);
    QVERIFY2(failure.message.contains(mentions), qPrintable(failure.message));
    QVERIFY(finished.isEmpty());
    QVERIFY(!controller.running());
  }
};

QTEST_GUILESS_MAIN(TestRunController)
#include "test_run_controller.moc"
