// The window wired to its run machinery: joins through the Run button agree with the oracle, Cancel
// stops a long run promptly, auto-run re-runs on an eps change, and a GPU failure offers a CPU run.
#include <algorithm>

#include <QCheckBox>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "core/base/error.hpp"
#include "core/io/point_writers.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/run_compare_dialog.hpp"
#include "ui/panels/run_status.hpp"
#include "ui/panels/runs_panel.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::test_registry;

class TestWindowRuns : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  std::shared_ptr<const PointSet> points_;

  // Writes `points` to a file and opens it in a fresh window.
  void openWindow(std::shared_ptr<const PointSet> points) {
    window_ = std::make_unique<MainWindow>(test_registry(), DeviceSummary{{}, "CPU only: test"});
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    const QString path = dir_.filePath("points.csv");
    write_points(path.toStdString(), *points);
    window_->openFile(path);
    window_->waitForTask();
    QVERIFY(window_->points());
    QCOMPARE(window_->points()->size(), points->size());
    points_ = window_->points();
  }

  // Runs `engine` at `eps` through the window and returns the finished run.
  RunRecordPtr run(const QString& engine, double eps) {
    if (!window_->parameters()->setEngine(engine)) return nullptr;
    window_->parameters()->setEps(eps);
    window_->runJoin();
    window_->waitForTask();
    return window_->currentRun();
  }

 private slots:
  void init() { QSettings().clear(); }

  void twoEnginesAgreeWithOracle() {
    openWindow(clustered_points(2500, 2, 11));
    const double eps = 0.3;
    QVERIFY(!simjoin::testing::oracle_pairs(*points_, nullptr, eps).empty());
    for (const QString engine : {"cpu-grid", "cpu-kmeans"}) {
      const RunRecordPtr record = run(engine, eps);
      QVERIFY(record);
      QCOMPARE(QString::fromStdString(record->result.stats.engine), engine);
      QCOMPARE(record->result.stats.eps, eps);
      QVERIFY(record->pairs.has_value());
      const VerifyReport report = simjoin::testing::compare_with_oracle(*record->pairs, *points_, nullptr, eps);
      QVERIFY2(report.ok(), report.summary().c_str());
      QVERIFY(window_->runStatus()->text().contains(QString::number(record->pairs->size())));
    }
  }

  void historyCompareLoadVerify() {
    openWindow(clustered_points(2000, 2, 15));
    const double eps = 0.35;
    const RunRecordPtr grid = run("cpu-grid", eps);
    const RunRecordPtr dropping = run("test-drop-pairs", eps);
    QVERIFY(grid && dropping);
    RunHistoryModel* history = window_->history();
    QCOMPARE(history->rowCount(), 2);
    QCOMPARE(history->run(0), grid);
    QCOMPARE(history->run(1), dropping);

    RunsPanel* panel = window_->runsPanel();
    panel->selectRows({0, 1});
    QCOMPARE(panel->selectedRuns().size(), std::size_t(2));
    auto* dialog = qobject_cast<RunCompareDialog*>(panel->compare());
    QVERIFY(dialog);
    QCOMPARE(dialog->model()->columnCount(), 2);
    QCOMPARE(dialog->chart()->bars().size(), std::size_t(2));
    QCOMPARE(dialog->chart()->bars()[1].stats.pairs, dropping->result.stats.pairs);
    dialog->close();

    // Loading the first run back shows its grid again.
    panel->selectRows({0});
    QSignalSpy loaded(panel, &RunsPanel::loadRequested);
    emit panel->loadRequested(panel->selectedRuns().front());
    QCOMPARE(window_->currentRun(), grid);
    QVERIFY(window_->currentRun()->result.grid.has_value());

    QSignalSpy verified(panel, &RunsPanel::verified);
    panel->verify("cpu-bruteforce");
    panel->waitForVerify();
    QCOMPARE(verified.count(), 1);
    QCOMPARE(verified.at(0).at(0).toBool(), true);
    panel->selectRows({1});
    panel->verify("cpu-bruteforce");
    panel->waitForVerify();
    QCOMPARE(verified.count(), 2);
    QCOMPARE(verified.at(1).at(0).toBool(), false);
    QVERIFY(verified.at(1).at(1).toString().contains("MISMATCH"));
  }

  // A run of other points than the loaded ones brings its points back: analysed on a worker (the
  // GUI thread only hands them over), then shown with the run's eps, k and result.
  void runOfOtherPointsShownAfterTheirAnalysis() {
    openWindow(clustered_points(2000, 2, 5));
    const std::shared_ptr<const PointSet> first = points_;
    const RunRecordPtr earlier = run("cpu-grid", 0.25);
    QVERIFY(earlier);
    const QString other = dir_.filePath("other.csv");
    write_points(other.toStdString(), *clustered_points(900, 3, 4));
    window_->openFile(other);
    window_->waitForTask();
    QCOMPARE(window_->points()->size(), std::size_t(900));
    QSignalSpy loaded(window_.get(), &MainWindow::pointsLoaded);
    window_->showRun(earlier);
    QCOMPARE(loaded.count(), 0);  // not yet: the analysis runs on a worker
    window_->waitForTask();
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(window_->points(), first);
    QCOMPARE(window_->currentRun(), earlier);
    QCOMPARE(window_->parameters()->eps(), 0.25);
    QCOMPARE(window_->view()->layers().ids.size(), first->size());
  }

  void chartsShowRunAndSweep() {
    openWindow(clustered_points(1500, 2, 16));
    const RunRecordPtr record = run("cpu-kmeans", 0.3);
    QVERIFY(record);
    PhaseChart* phases = window_->charts()->phaseChart();
    QCOMPARE(phases->bars().size(), std::size_t(1));
    QCOMPARE(phases->bars()[0].stats.pairs, record->result.stats.pairs);
    // Titled for a figure: the data, eps, k, the engine and the machine.
    window_->charts()->setMachine("Test CPU, 2 threads; GPU: none (test)");
    window_->charts()->showRun(record);
    for (const char* part :
         {"points.csv, n = 1500, d = 2", "= 0.3", "k = ", "engine cpu-kmeans", "Test CPU, 2 threads"})
      QVERIFY2(phases->title().contains(part), qPrintable(phases->title()));

    SweepPanel* sweep = window_->charts()->sweep();
    sweep->setEngines({"cpu-grid", "cpu-kmeans"});
    sweep->setEpsRange(0.1, 0.4, 3, true);
    sweep->setMetric(SweepMetric::Pairs);
    QSignalSpy finished(sweep->runner(), &SweepRunner::finished);
    sweep->start();
    QVERIFY(finished.wait(60000));
    const std::vector<SweepPoint>& points = sweep->chart()->points();
    QCOMPARE(points.size(), std::size_t(6));
    QCOMPARE(sweep->chart()->plottedPointCount(), 6);
    QVERIFY(sweep->chart()->xLogarithmic());
    QVERIFY(sweep->chart()->title().contains("Test CPU, 2 threads"));
    QVERIFY(sweep->chart()->title().contains("median of 3 runs after 1 warm-up"));
    const std::vector<double> eps = eps_steps(0.1, 0.4, 3, true);
    QVERIFY(std::abs(eps[1] - 0.2) < 1e-12);  // log spacing: the geometric middle
    for (const SweepPoint& point : points) {
      QVERIFY(std::find(eps.begin(), eps.end(), point.eps) != eps.end());
      const std::uint64_t expected = simjoin::testing::oracle_pairs(*points_, nullptr, point.eps).size();
      QVERIFY2(
          point.stats.pairs == expected,
          qPrintable(QString("%1 pairs at eps %2, expected %3").arg(point.stats.pairs).arg(point.eps).arg(expected)));
    }
  }

  void sweepValueParsing() {
    QCOMPARE(parse_k_list(" 4, 8,16"), (std::vector<int>{4, 8, 16}));
    QVERIFY_THROWS_EXCEPTION(Error, parse_k_list("4,x"));
    QVERIFY_THROWS_EXCEPTION(Error, eps_steps(0, 1, 3, true));
    QCOMPARE(eps_steps(0.1, 0.5, 5, false).back(), 0.5);
  }

  void exportsWriteSelectedRun() {
    openWindow(clustered_points(1200, 2, 17));
    const RunRecordPtr record = run("cpu-grid", 0.3);
    QVERIFY(record);
    QVERIFY(record->pairs.has_value());
    const VerifyReport report = simjoin::testing::compare_with_oracle(*record->pairs, *points_, nullptr, 0.3);
    QVERIFY2(report.ok(), report.summary().c_str());
    std::vector<Pair> expected = *record->pairs;  // the export holds the run's own pairs
    std::sort(expected.begin(), expected.end());
    const auto exported = [&](RunExport kind, const QString& name) {
      QSignalSpy done(window_.get(), &MainWindow::exportFinished);
      window_->exportRun(kind, dir_.filePath(name));
      window_->waitForTask();
      return done.count() == 1 && done.at(0).at(0).toBool();
    };
    QVERIFY(exported(RunExport::Pairs, "pairs.csv"));
    QFile csv(dir_.filePath("pairs.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    std::vector<Pair> written;
    for (const QByteArray& line : csv.readAll().split('\n')) {
      const QList<QByteArray> fields = line.split(',');
      bool ok_i = false, ok_j = false;
      if (fields.size() == 2) written.push_back({fields[0].toUInt(&ok_i), fields[1].toUInt(&ok_j)});
      if (fields.size() == 2 && !(ok_i && ok_j)) written.pop_back();  // the header
    }
    QVERIFY(written == expected);

    QVERIFY(exported(RunExport::StatsJson, "stats.json"));
    QFile json(dir_.filePath("stats.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(nlohmann::json::parse(json.readAll().toStdString())["pairs"].get<std::uint64_t>(),
             std::uint64_t(expected.size()));
    QVERIFY(exported(RunExport::NeighborsCsr, "neighbors.csr"));
    QVERIFY(QFile::exists(dir_.filePath("neighbors.offsets.npy")));
    QVERIFY(QFile::exists(dir_.filePath("neighbors.ids.npy")));
    QVERIFY(exported(RunExport::LabeledVtp, "points.vtp"));
    QVERIFY(QFileInfo(dir_.filePath("points.vtp")).size() > qint64(points_->size()));

    QSignalSpy done(window_.get(), &MainWindow::exportFinished);
    window_->exportView(dir_.filePath("view.png"));
    window_->waitForTask();
    QCOMPARE(done.count(), 1);
    const QImage view(dir_.filePath("view.png"));
    QVERIFY(!view.isNull());
    // A figure of the default size (test_figures checks what it holds), whatever the view's size on screen.
    QCOMPARE(view.size(), ImageSize{}.pixels);

    // At a chosen size and dpi; the view on screen keeps its size.
    const QSize on_screen = window_->view()->size();
    window_->exportView(dir_.filePath("sized.png"), ImageSize{QSize(1100, 700), 200});
    window_->waitForTask();
    QCOMPARE(done.count(), 2);
    const QImage sized(dir_.filePath("sized.png"));
    QCOMPARE(sized.size(), QSize(1100, 700));
    QCOMPARE(sized.dotsPerMeterX(), qRound(200 / 0.0254));
    QCOMPARE(window_->view()->size(), on_screen);
  }

  void cancelStopsPromptly() {
    openWindow(clustered_points(60000, 16, 12));
    QVERIFY(window_->parameters()->setEngine("cpu-bruteforce"));
    window_->parameters()->setEps(2.0);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy progress(window_->runController(), &RunController::runProgress);
    window_->runJoin();
    QVERIFY(progress.wait(30000));  // the engine is inside its join loop
    QVERIFY(window_->runController()->running());
    QElapsedTimer timer;
    timer.start();
    emit window_->parameters()->cancelRequested();  // what the Cancel button sends
    window_->waitForTask();
    QVERIFY2(timer.elapsed() < 100, qPrintable(QString("cancel took %1 ms").arg(timer.elapsed())));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!window_->currentRun());
    QVERIFY(window_->runStatus()->text().contains("cancelled"));
  }

  void autoRunFollowsEps() {
    openWindow(clustered_points(2000, 3, 13));
    QVERIFY(window_->parameters()->setEngine("cpu-grid"));
    window_->runController()->setDebounceMs(50);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    window_->runStatus()->autoRun()->setChecked(true);
    QVERIFY(finished.wait(20000));
    // Several quick changes: only the last one's result is shown.
    for (double eps : {0.2, 0.3, 0.45}) window_->parameters()->setEps(eps);
    QTRY_VERIFY_WITH_TIMEOUT(window_->currentRun() && window_->currentRun()->result.stats.eps == 0.45, 20000);
    QCOMPARE(window_->currentRun()->result.stats.pairs,
             std::uint64_t(simjoin::testing::oracle_pairs(*points_, nullptr, 0.45).size()));
  }

  void gpuFailureOffersCpuRun() {
    openWindow(clustered_points(1500, 2, 14));
    qApp->setProperty("unattended", false);
    QVERIFY(window_->parameters()->setEngine("test-gpu-oom"));
    window_->runJoin();
    window_->waitForTask();
    QVERIFY(!window_->currentRun());
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = window_->findChild<QMessageBox*>("runFailure")) != nullptr);
    QVERIFY(box->text().contains("out of memory"));
    QPushButton* cpu = nullptr;
    for (QAbstractButton* button : box->buttons())
      if (button->text() == "Run on CPU") cpu = qobject_cast<QPushButton*>(button);
    QVERIFY(cpu);
    cpu->click();
    qApp->setProperty("unattended", true);
    window_->waitForTask();
    QCOMPARE(window_->parameters()->engine(), QString("auto"));
    QVERIFY(window_->currentRun());
    QCOMPARE(window_->currentRun()->result.stats.pairs,
             std::uint64_t(simjoin::testing::oracle_pairs(*points_, nullptr, window_->parameters()->eps()).size()));
  }

  void cleanup() { window_.reset(); }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowRuns, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_runs.moc"
