// The Step through tab as a user sees it: stepping and playing through KMEANS-JOIN and GPU-SJ on the
// loaded points, the counters after the last step equal to the engine's statistics on the same
// (sampled) points, and `--step N` from the command line.
#include <cmath>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/run/run_engine.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/format/count_text.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/step_through/step_canvas.hpp"
#include "ui/step_through/step_through_tab.hpp"
#include "ui/views/palette.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
QString count(std::uint64_t value) { return QString::fromStdString(count_text(value)); }

// Pixels of `image` in the canvas' colours for the searched and the skipped cells.
struct Hatches {
  int searched = 0, skipped = 0;
};

double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  double ma = 0, mb = 0, ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += a[i] / double(a.size()), mb += b[i] / double(b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ab += (a[i] - ma) * (b[i] - mb), aa += (a[i] - ma) * (a[i] - ma), bb += (b[i] - mb) * (b[i] - mb);
  return ab / std::sqrt(aa * bb);
}

Hatches hatches(const QImage& image) {
  Hatches h;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor p = image.pixelColor(x, y);
      h.searched += p.green() > 130 && p.red() < 80 && p.blue() < 100;
      h.skipped += p.red() > 200 && p.green() > 90 && p.green() < 150 && p.blue() < 60;
    }
  return h;
}
}  // namespace

class TestWindowStepThrough : public QObject {
  Q_OBJECT

  EngineRegistry registry_;
  std::unique_ptr<MainWindow> window_;
  StepThroughTab* tab_ = nullptr;

  void open(const char* sample, double eps, int k) {
    window_->openSample(sample);
    window_->waitForTask();
    QVERIFY(window_->points());
    window_->parameters()->setEps(eps);
    window_->parameters()->setK(k);
    tab_ = window_->findChild<StepThroughTab*>();
    QVERIFY(tab_);
    window_->tabs()->setCurrentWidget(tab_);
  }

  // Runs the engine on the tab's (sampled) points and compares with the counters on screen.
  void finalCountersAreTheEngines(const char* engine, bool copies) {
    tab_->advance(1 << 20);
    const StepThrough& run = *tab_->run();
    QCOMPARE(tab_->step() + 1, run.steps.size());
    JoinParams params;
    params.eps = run.eps;
    params.k = int(run.k);
    params.threads = 1;
    CountSink sink;
    RunControl control;
    const RunStats stats = run_engine(registry_.get(engine), {&run.points, nullptr}, params, sink, control).stats;
    const QString counters = tab_->counters()->text();
    QVERIFY2(counters.contains("distance tests " + count(stats.compared_pairs)), qPrintable(counters));
    QVERIFY2(counters.contains("pairs so far " + count(stats.pairs)), qPrintable(counters));
    if (copies) QVERIFY2(counters.contains("copies " + count(stats.replicated_points)), qPrintable(counters));
    QVERIFY2(tab_->check()->text().endsWith("the same counts."), qPrintable(tab_->check()->text()));
  }

 private slots:
  void initTestCase() { register_cpu_engines(registry_); }

  void init() {
    window_ = std::make_unique<MainWindow>(registry_, DeviceSummary{{}, "CPU only: test"});
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void kmeansJoinStepByStep() {
    open("blobs2d", 0.2, 6);
    tab_->setAlgorithm("KMEANS-JOIN");
    const StepThrough& run = *tab_->run();
    QVERIFY(run.sampled());
    QVERIFY(tab_->info()->text().contains("Stepping through 1,500 of the 3,000 points"));
    QCOMPARE(tab_->step(), std::size_t(0));
    QVERIFY(tab_->counters()->text().contains("distance tests 0"));
    tab_->advance(1);
    QCOMPARE(tab_->step(), std::size_t(1));
    finalCountersAreTheEngines("cpu-kmeans", true);
  }

  void playingReachesTheEnd() {
    open("timezones", 5, 4);
    tab_->setAlgorithm("KMEANS-JOIN");
    tab_->setPlaying(true);
    QTRY_COMPARE_WITH_TIMEOUT(tab_->step() + 1, tab_->run()->steps.size(), 30000);
    QVERIFY(!tab_->check()->text().isEmpty());
  }

  void gridStepByStep() {
    open("blobs2d", 0.1, 0);
    tab_->setAlgorithm("GPU-SJ");
    tab_->advance(40);
    QVERIFY(tab_->canvas()->drawsCells());
    const Hatches seen = hatches(tab_->canvas()->grab().toImage());
    const JoinStep& step = tab_->run()->steps[tab_->step()];
    QCOMPARE(seen.searched > 0, !step.searched_cells.empty());
    QCOMPARE(seen.skipped > 0, !step.skipped_cells.empty());
    finalCountersAreTheEngines("cpu-grid", false);
  }

  void inljStepByStep() {
    open("iris", 0.3, 0);
    tab_->setAlgorithm("GPU-INLJ");
    QCOMPARE(tab_->run()->algorithm, std::string("GPU-INLJ"));
    QVERIFY2(tab_->info()->text().contains("chunks of 22 points here"), qPrintable(tab_->info()->text()));
    tab_->advance(2);
    // This round's cells of the block-by-chunk matrix are drawn in their blocks' colours.
    const QImage image = tab_->canvas()->grab().toImage();
    const QColor block0 = QColor(category_color(0)[0], category_color(0)[1], category_color(0)[2]);
    int filled = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = image.width() / 2; x < image.width(); ++x) filled += image.pixelColor(x, y) == block0;
    QVERIFY2(filled > 50, qPrintable(QString("%1 pixels of block 0's colour in the matrix").arg(filled)));
    finalCountersAreTheEngines("cpu-nlj", false);
  }

  // A lat,lon file is drawn as the 2-D views draw it (PC1 across, signs fixed): lon across, north up,
  // not in its column order (which turned the map by 90 degrees).
  void drawnInTheViewsProjection() {
    open("timezones", 5, 4);
    const PointSet& lonlat = *window_->points();
    QTemporaryDir dir;
    const QString path = dir.filePath("latlon.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
    file.write("lat,lon\n");
    for (std::size_t i = 0; i < lonlat.size(); ++i)
      file.write(QString("%1,%2\n").arg(lonlat.point(i)[1], 0, 'g', 17).arg(lonlat.point(i)[0], 0, 'g', 17).toUtf8());
    file.close();
    window_->openFile(path);
    window_->waitForTask();
    QCOMPARE(window_->points()->column_names.front(), std::string("lat"));
    for (const char* algorithm : {"KMEANS-JOIN", "GPU-SJ"}) {
      tab_->setAlgorithm(algorithm);
      const PointSet& points = tab_->run()->points;
      // Across follows lon (column 1), up follows lat (column 0): correlations near 1.
      std::vector<double> lat, lon, across, up;
      for (std::uint32_t p = 0; p < points.size(); ++p) {
        lat.push_back(points.point(p)[0]);
        lon.push_back(points.point(p)[1]);
        across.push_back(tab_->canvas()->pointAt(p).x());
        up.push_back(-tab_->canvas()->pointAt(p).y());
      }
      QVERIFY2(correlation(lon, across) > 0.95, qPrintable(QString::number(correlation(lon, across))));
      QVERIFY2(correlation(lat, up) > 0.95, qPrintable(QString::number(correlation(lat, up))));
    }
  }

  void parametersReplayTheSteps() {
    open("timezones", 5, 4);
    tab_->setAlgorithm("KMEANS-JOIN");
    tab_->advance(3);
    window_->parameters()->setK(5);
    QCOMPARE(tab_->run()->k, std::size_t(5));
    QCOMPARE(tab_->step(), std::size_t(0));
  }

  void stepFromTheCommandLine() {
    QTemporaryDir dir;
    const QString shot = dir.filePath("step.png");
    QProcess studio;
    studio.start(SIMJOIN_STUDIO, {"sample:blobs2d", "--engine", "cpu-grid", "--eps", "0.1", "--step", "40",
                                  "--screenshot", shot, "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 0);
    const Hatches seen = hatches(QImage(shot));
    QVERIFY(seen.searched > 0 || seen.skipped > 0);
    studio.start(SIMJOIN_STUDIO, {"sample:blobs2d", "--step", "-1", "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 2);
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowStepThrough, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_step_through.moc"
