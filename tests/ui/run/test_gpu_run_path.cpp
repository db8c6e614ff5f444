// The GPU engines through the application's run path (RunController on its worker thread), as the
// window runs them: pairs equal to the float64 oracle, statistics equal to `simjoin join --stats` on
// the same file, auto-run cancelled at random moments by rapid eps and k changes with every completed
// run exact, cancel within 100 ms of a long GPU run, GPU out of memory reported and repeated on a CPU
// engine, and the "all GPUs" device choice. Where no GPU is found every case skips, visibly; in the
// GPU-required mode (tests/core/gpu_required.hpp) it fails instead.
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <fstream>
#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "app/registry/every_engine.hpp"
#include "core/io/point_writers.hpp"
#include "cuda/gpu_engines.hpp"
#include "tests/core/gpu_required.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/run/run_controller.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::make_request;

namespace {
// The CLI binary: SIMJOIN_CLI in the environment (the GPU machine's copy), else the build's.
QString cli_path() {
  const QByteArray set = qgetenv("SIMJOIN_CLI");
  return set.isEmpty() ? QString(SIMJOIN_CLI) : QString::fromLocal8Bit(set);
}

// Waits for the run `id` to end, returning its record (null when it failed or was cancelled).
RunRecordPtr wait_for(QSignalSpy& finished, QSignalSpy& failed, quint64 id, int timeout_ms = 120000) {
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < timeout_ms) {
    for (const QList<QVariant>& signal : finished)
      if (signal.at(0).toULongLong() == id) return signal.at(1).value<RunRecordPtr>();
    for (const QList<QVariant>& signal : failed)
      if (signal.at(0).toULongLong() == id) return nullptr;
    QTest::qWait(5);
  }
  return nullptr;
}

// The phases of a run but those of the views' structures, which the window asks for and the command
// line does not (JoinParams::structures).
std::set<std::string> phase_names(const RunStats& stats) {
  std::set<std::string> names;
  for (const auto& phase : stats.phases) names.insert(phase.name);
  names.erase("partition structure");
  return names;
}
}  // namespace

// QSKIP and QFAIL return from the test function that calls them, hence a macro: skips where no GPU is
// found, fails in the GPU-required mode.
#define SKIP_WITHOUT_GPU()                                                                                      \
  do {                                                                                                          \
    if (gpus_.available) break;                                                                                 \
    if (simjoin::testing::gpu_required()) QFAIL((simjoin::testing::kGpuRequiredMessage + noGpu()).constData()); \
    QSKIP(noGpu().constData());                                                                                 \
  } while (0)

class TestGpuRunPath : public QObject {
  Q_OBJECT

  EngineRegistry registry_;
  GpuStatus gpus_;
  std::vector<std::string> gpu_engines_;

  QByteArray noGpu() const { return "no GPU: " + QByteArray::fromStdString(gpus_.reason); }

 private slots:
  void initTestCase() {
    register_every_engine(registry_);
    gpus_ = query_gpus();
    for (const auto& engine : registry_.engines())
      if (engine->capabilities().gpu && engine->availability().available) gpu_engines_.push_back(engine->name());
    qInfo("GPUs: %zu; GPU engines: %zu", gpus_.devices.size(), gpu_engines_.size());
  }

  // Every GPU engine on a worker thread: the oracle's pairs, progress, and the statistics the CLI
  // reports for the same points in a file (pairs, distance tests, copies, k and the phases).
  void eachGpuEngineMatchesOracleAndCli() {
    SKIP_WITHOUT_GPU();
    QTemporaryDir dir;
    const auto points = clustered_points(6000, 4, 1);
    const std::string file = dir.filePath("points.npy").toStdString();
    write_points(file, *points);
    const double eps = 0.35;
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*points, nullptr, eps);
    QVERIFY(expected.size() > 1000);
    RunController controller(registry_);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    QSignalSpy progress(&controller, &RunController::runProgress);
    for (const std::string& engine : gpu_engines_) {
      const QString name = QString::fromStdString(engine);
      RunRequest request = make_request(engine, points, eps);
      request.params.k = 6;
      const RunRecordPtr record = wait_for(finished, failed, controller.start(request));
      QVERIFY2(record,
               qPrintable(name + ": " +
                          (failed.isEmpty() ? QString("timed out") : failed.last().at(1).value<RunFailure>().message)));
      QVERIFY2(record->pairs.has_value(), qPrintable(name));
      if (registry_.get(engine).capabilities().exact)
        QVERIFY2(
            *record->pairs == expected,
            qPrintable(name + QString(": %1 pairs, the oracle %2").arg(record->pairs->size()).arg(expected.size())));
      else
        QVERIFY2(std::includes(expected.begin(), expected.end(), record->pairs->begin(), record->pairs->end()),
                 qPrintable(name + ": a pair the oracle does not have"));

      QProcess cli;
      const QString stats_file = dir.filePath(name + ".json");
      cli.start(cli_path(), {"join", "--input", QString::fromStdString(file), "--engine", name, "--eps", "0.35", "--k",
                             "6", "--seed", QString::number(request.params.seed), "--stats", stats_file});
      QVERIFY2(cli.waitForFinished(120000) && cli.exitCode() == 0,
               qPrintable(name + ": " + cli_path() + " failed: " + cli.readAllStandardError()));
      std::ifstream in(stats_file.toStdString());
      const nlohmann::json json = nlohmann::json::parse(in);
      const RunStats& stats = record->result.stats;
      QCOMPARE(json.at("pairs").get<std::uint64_t>(), stats.pairs);
      QCOMPARE(json.at("compared_pairs").get<std::uint64_t>(), stats.compared_pairs);
      QCOMPARE(json.at("replicated_points").get<std::uint64_t>(), stats.replicated_points);
      QCOMPARE(json.at("k").get<int>(), stats.k);
      std::set<std::string> cli_phases;
      for (const auto& [phase, seconds] : json.at("phases").items()) cli_phases.insert(phase);
      const auto joined = [](const std::set<std::string>& names) {
        QStringList list;
        for (const std::string& name : names) list << QString::fromStdString(name);
        return list.join(", ");
      };
      QVERIFY2(cli_phases == phase_names(stats), qPrintable(name + ": the CLI's phases " + joined(cli_phases) +
                                                            "; the run's " + joined(phase_names(stats))));
      qInfo("%s: %zu pairs, %.1f ms, phases %zu", engine.c_str(), record->pairs->size(), stats.seconds_total * 1e3,
            stats.phases.size());
    }
    QVERIFY(!progress.isEmpty());
  }

  // Auto-run as the window drives it while the user drags eps and k: each change cancels the run in
  // progress at whatever moment it has reached. Every run that completes is exact for its own eps.
  void autoRunCancelledAtRandomMomentsStaysExact() {
    SKIP_WITHOUT_GPU();
    const auto points = clustered_points(150000, 3, 2);
    const std::vector<double> eps_values = {0.02, 0.03, 0.05};
    // cpu-grid's pairs, which the core tests check against the oracle (too slow at this size).
    std::map<double, std::vector<Pair>> expected;
    for (double eps : eps_values) {
      expected[eps] = simjoin::testing::run_pairs(registry_.get("cpu-grid"), *points, nullptr, JoinParams{.eps = eps});
      qInfo("eps %g: %zu pairs", eps, expected[eps].size());
    }
    const std::uint64_t seed = simjoin::ui::testing::seed();
    std::mt19937_64 rng(seed);
    qInfo("changes drawn with seed %llu", static_cast<unsigned long long>(seed));
    RunController controller(registry_);
    controller.setDebounceMs(2);
    controller.setAutoRun(true);
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    const std::vector<std::string> engines = {"gpu-grid", "gpu-lss", "gpu-boehm", "gpu-kmeans", "gpu-auto"};
    for (int change = 0; change < 60; ++change) {
      RunRequest request = make_request(engines[rng() % engines.size()], points, eps_values[rng() % eps_values.size()]);
      request.params.k = int(4 + rng() % 12);
      request.keep_pairs_limit = 50'000'000;
      controller.setRequest(request);
      // Mostly quick changes that stop runs part-way; now and then a pause that lets one finish.
      QTest::qWait(rng() % 4 == 0 ? int(300 + rng() % 300) : int(rng() % 30));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!controller.running() && finished.count() > 0, 120000);
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.first().at(1).value<RunFailure>().message));
    // A superseded run is cancelled without a signal of its own: started but never finished.
    qInfo("%lld runs started, %lld completed", static_cast<long long>(started.count()),
          static_cast<long long>(finished.count()));
    QVERIFY(started.count() > finished.count());
    QVERIFY(finished.count() >= 3);
    for (const QList<QVariant>& signal : finished) {
      const auto record = signal.at(1).value<RunRecordPtr>();
      const double eps = record->request.params.eps;
      QVERIFY2(record->pairs && *record->pairs == expected.at(eps),
               qPrintable(QString("%1 at eps %2: %3 pairs, expected %4")
                              .arg(QString::fromStdString(record->request.engine))
                              .arg(eps)
                              .arg(record->result.stats.pairs)
                              .arg(expected.at(eps).size())));
    }
  }

  // A long GPU run is cancelled within 100 ms of the request, 250 ms into it, and the event loop never
  // waits on it. Where an engine finishes sooner, the points are four times as many (up to 32 M), so
  // that every engine is cancelled mid-run: a run that was not is a failure.
  void cancelOfLongGpuRunsWithin100ms() {
    SKIP_WITHOUT_GPU();
    for (const std::string engine : {"gpu-nlj", "gpu-inlj", "gpu-bruteforce", "gpu-grid"}) {
      bool cancelled_mid_run = false;
      for (std::size_t n = 2'000'000; n <= 32'000'000 && !cancelled_mid_run; n *= 4) {
        cancelled_mid_run = cancelMidRun(engine, clustered_points(n, 2, 3));
        if (QTest::currentTestFailed()) return;
        if (!cancelled_mid_run) qInfo("%s finished within 250 ms on %zu points: more points", engine.c_str(), n);
      }
      QVERIFY2(cancelled_mid_run, qPrintable(QString::fromStdString(engine) + ": every run ended within 250 ms"));
    }
  }

 private:
  // Starts `engine` on `points`, cancels it 250 ms in and checks the latency and the event loop; false
  // when the run had ended before the cancel.
  bool cancelMidRun(const std::string& engine, std::shared_ptr<const PointSet> points) {
    RunController controller(registry_);
    QSignalSpy cancelled(&controller, &RunController::runCancelled);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    QElapsedTimer tick;
    qint64 longest_gap = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&] { longest_gap = std::max(longest_gap, tick.restart()); });
    RunRequest request = make_request(engine, points, 0.2);
    request.keep_pairs_limit = 0;  // count only, as a run too large to keep
    controller.start(request);
    tick.start();
    ticker.start();
    QTest::qWait(250);
    if (!finished.isEmpty() || !failed.isEmpty() || !controller.running()) {
      if (!failed.isEmpty())
        QTest::qFail(qPrintable(failed.first().at(1).value<RunFailure>().message), __FILE__, __LINE__);
      return false;
    }
    QElapsedTimer clock;
    clock.start();
    controller.cancel();
    const bool stopped = cancelled.wait(5000);
    const qint64 ms = clock.elapsed();
    ticker.stop();
    qInfo("%s on %zu points: cancel took %lld ms, longest event-loop gap %lld ms", engine.c_str(), points->size(),
          static_cast<long long>(ms), static_cast<long long>(longest_gap));
    [&] {
      QVERIFY2(stopped && finished.isEmpty() && failed.isEmpty(),
               qPrintable(QString::fromStdString(engine) + ": not cancelled"));
      QVERIFY2(ms < 100, qPrintable(QString::fromStdString(engine) + QString(": cancel took %1 ms").arg(ms)));
      QVERIFY2(longest_gap < 100, qPrintable(QString("event loop stalled %1 ms").arg(longest_gap)));
    }();
    return true;
  }

 private slots:
  // A result batch larger than the GPU (gpu-nlj allocates the batch it is given): reported as out of
  // memory, with the CPU fallback offered; the same join on a CPU engine then completes, exact, and the
  // GPU engine works again afterwards.
  void gpuOutOfMemoryFallsBackToCpu() {
    SKIP_WITHOUT_GPU();
    const auto points = clustered_points(20000, 3, 4);
    const double eps = 0.3;
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*points, nullptr, eps);
    RunController controller(registry_);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    RunRequest request = make_request("gpu-nlj", points, eps);
    request.params.batch_bytes = std::uint64_t(1) << 50;  // a petabyte of result buffer
    const quint64 id = controller.start(request);
    QVERIFY(!wait_for(finished, failed, id));
    QVERIFY(!failed.isEmpty());
    const auto failure = failed.last().at(1).value<RunFailure>();
    qInfo("reported: %s", qPrintable(failure.message));
    QCOMPARE(failure.kind, ErrorKind::OutOfMemory);
    QVERIFY(failure.cpu_fallback);
    QVERIFY(failure.message.contains("CPU engine"));
    request.engine = "cpu-grid";
    const RunRecordPtr on_cpu = wait_for(finished, failed, controller.start(request));
    QVERIFY(on_cpu && on_cpu->pairs && *on_cpu->pairs == expected);
    request.engine = "gpu-nlj";
    request.params.batch_bytes = 0;
    const RunRecordPtr again = wait_for(finished, failed, controller.start(request));
    QVERIFY(again && again->pairs && *again->pairs == expected);
  }

  // The Device box's "all GPUs": the run is split across every GPU and stays exact.
  void allGpusChoice() {
    SKIP_WITHOUT_GPU();
    if (gpus_.devices.size() < 2) QSKIP("one GPU: the all-GPUs choice needs two or more");
    const auto points = clustered_points(50000, 3, 5);
    const double eps = 0.2;
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*points, nullptr, eps);
    RunController controller(registry_);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    for (const std::string engine : {"gpu-grid", "gpu-kmeans"}) {
      RunRequest request = make_request(engine, points, eps);
      for (const GpuDevice& device : gpus_.devices) request.params.devices.push_back(device.ordinal);
      const RunRecordPtr record = wait_for(finished, failed, controller.start(request));
      QVERIFY(record && record->pairs && *record->pairs == expected);
      QVERIFY(QString::fromStdString(record->result.stats.device).contains("(GPU 1)"));
    }
  }
};

QTEST_GUILESS_MAIN(TestGpuRunPath)
#include "test_gpu_run_path.moc"
