// The window answers at real data sizes: an event-loop-gap probe (a timer that measures the time
// between its ticks) stays under kMaxGapMs while 5 M points load, the view modes switch, a point is
// picked, the view is zoomed with the wheel, the points are re-coloured, the view is reset, a
// cpu-grid run finishes and its Grid and Partitions views are drawn, a run is cancelled, eps changes,
// and the tabs switch; the Grid view's first picture comes within kMaxFirstPictureMs. The drawing
// runs on a worker thread (ProjectionView); the probe never calls settle(), which would block.
#include <cstdlib>
#include <ctime>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>
#include <QtTest>

#include "core/io/npy.hpp"
#include "core/join/engine.hpp"
#include "core/points/generators.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
// The goal is 100 ms. The drawing and its VTK data are made on a worker; handing them to VTK and
// rendering them with Xvfb's software OpenGL still run on the GUI thread, and the gap includes the
// time the GUI thread waits for the software OpenGL's own threads and, on a loaded machine, for a CPU.
// On two idle cores (load below 0.5 a core) the longest gaps were 76-97 ms at 5 M and 20 M points
// (docs/testing.md); a shared CI machine's load can double them, so the test fails only from 500 ms,
// and the load-independent bound is the GUI thread's own work below.
constexpr qint64 kMaxGapMs = 500;
// The most the GUI thread computes between two ticks (handing the layers to VTK, one frame of the
// software OpenGL): at most 63 ms at 5 M and 52 ms at 20 M points on a machine loaded 7 to 9 per core,
// since a new drawing renders one frame instead of two to four and the Grid view draws at most
// 10,000 cells; 195 ms before (docs/testing.md). A load inflates it little, unlike the gap.
constexpr qint64 kMaxBusyMs = 100;
// The Grid view shows a first picture (the cells of 200,000 of the points) within a second, while
// every point's cell is counted; like a gap, it is checked only where the machine is not busy.
constexpr qint64 kMaxFirstPictureMs = 1000;

// The GUI thread's CPU time in ms.
qint64 thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

// The longest time between two ticks of a 5 ms timer: how long the GUI thread did not answer, and how
// much of it the GUI thread computed (the rest it waited: for the CPU on a busy machine, or for the
// software OpenGL's own threads); and the most the GUI thread computed between two ticks, which on a
// loaded machine need not be in the longest gap (that one can be a wait for a CPU alone).
class GapProbe : public QObject {
 public:
  struct Gap {
    qint64 ms = 0, busy_ms = 0;
    qint64 busiest_ms = 0;  // of any gap
  };
  GapProbe() {
    connect(&timer_, &QTimer::timeout, this, [this] { tick(); });
    timer_.setTimerType(Qt::PreciseTimer);
  }
  void start() {
    clock_.start();
    last_ = 0;
    last_cpu_ = thread_cpu_ms();
    worst_ = {};
    timer_.start(5);
  }
  // Leaves the time since the last tick out (the test's own work, such as a grab of the window).
  void skip() {
    last_ = clock_.elapsed();
    last_cpu_ = thread_cpu_ms();
  }
  Gap stop() {
    timer_.stop();
    tick();
    return worst_;
  }

 private:
  void tick() {
    const qint64 now = clock_.elapsed(), cpu = thread_cpu_ms();
    const qint64 busiest = std::max(worst_.busiest_ms, cpu - last_cpu_);
    if (now - last_ > worst_.ms) worst_ = {now - last_, cpu - last_cpu_};
    worst_.busiest_ms = busiest;
    last_ = now;
    last_cpu_ = cpu;
  }

  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0, last_cpu_ = 0;
  Gap worst_;
};

// The points the test loads: 5 M, or SIMJOIN_RESPONSIVE_POINTS (20000000 measures the 20 M window).
std::size_t points_to_load() {
  const qulonglong n = qEnvironmentVariable("SIMJOIN_RESPONSIVE_POINTS").toULongLong();
  return n > 0 ? n : 5'000'000;
}

// How long a load or a drawing may take: a minute per 5 M points.
int wait_ms() { return 60000 * int(std::max<std::size_t>(1, points_to_load() / 5'000'000)); }
}  // namespace

class TestWindowResponsive : public QObject {
  Q_OBJECT

  EngineRegistry registry_;
  std::unique_ptr<MainWindow> window_;
  GapProbe probe_;
  QStringList gaps_, slow_, busy_;

  // Runs `action` with the probe on, waits (processing events) until the view has drawn, and checks
  // the longest gap; with a `mode`, also how long the view took to show a first picture of it.
  void measure(const QString& what, const std::function<void()>& action, std::optional<ViewMode> mode = {}) {
    QElapsedTimer took;
    took.start();
    probe_.start();
    action();
    qint64 first = -1;
    // qWaitFor, not QTRY_: it waits also after an earlier step failed.
    if (mode && QTest::qWaitFor([&] { return window_->view()->shownMode() == mode; }, wait_ms())) {
      first = took.elapsed();
      // SIMJOIN_FIRST_PICTURES=DIR keeps the window as each first picture shows (docs/teaching.md).
      if (const QString dir = qEnvironmentVariable("SIMJOIN_FIRST_PICTURES"); !dir.isEmpty()) {
        window_->grab().save(QDir(dir).filePath(QString(what).replace(' ', '-').replace("'", "") + ".png"));
        probe_.skip();
      }
    }
    QVERIFY(QTest::qWaitFor([&] { return !window_->view()->drawing(); }, wait_ms()));
    QTest::qWait(50);  // a paint or two of the new drawing
    const GapProbe::Gap gap = probe_.stop();
    gaps_ << QString(
                 "%1: longest gap %2 ms (GUI thread computing %3 ms of it), GUI thread computing at most "
                 "%4 ms between two ticks, %5drawn after %6 ms")
                 .arg(what)
                 .arg(gap.ms)
                 .arg(gap.busy_ms)
                 .arg(gap.busiest_ms)
                 .arg(mode ? QString("first picture after %1 ms, ").arg(first) : QString())
                 .arg(took.elapsed());
    qInfo("%s", qPrintable(gaps_.back()));
    if (gap.ms >= kMaxGapMs || (mode && (first < 0 || first > kMaxFirstPictureMs))) slow_ << gaps_.back();
    // What the GUI thread itself computes does not depend on the machine's load: always checked.
    if (gap.busiest_ms >= kMaxBusyMs) busy_ << gaps_.back();
  }

  // Turns the wheel over the view's centre `steps` times (in, or out for negative steps), the events
  // a few milliseconds apart as a hand sends them, then waits for the view to draw all its points again.
  void turnWheel(int steps) {
    QWidget* view = window_->view()->vtkWidget();
    const QPointF centre(view->width() / 2.0, view->height() / 2.0);
    for (int i = 0; i < std::abs(steps); ++i) {
      QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, steps > 0 ? 120 : -120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(view, &wheel);
      QTest::qWait(20);
    }
    QTest::qWait(400);  // the wheel's end: every point is drawn again
  }

 private slots:
  void initTestCase() {
    register_cpu_engines(registry_);
    window_ = std::make_unique<MainWindow>(registry_, DeviceSummary{{}, "CPU only: test"});
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void fiveMillionPoints() {
    QTemporaryDir dir;
    const QString path = dir.filePath("many-points.npy");
    const std::size_t n = points_to_load();
    GeneratorSpec spec{Distribution::Clusters, n, 3, 20, 0.02, 0, 1, 7};
    write_npy(path.toStdString(), generate(spec));

    QSignalSpy loaded(window_.get(), &MainWindow::pointsLoaded);
    measure("loading", [&] {
      window_->openFile(path);
      QVERIFY(QTest::qWaitFor([&] { return loaded.count() == 1; }, wait_ms()));
    });
    QCOMPARE(window_->points()->size(), n);
    for (const ViewMode mode : {ViewMode::Grid, ViewMode::Partitions, ViewMode::Replication, ViewMode::Scatter})
      measure(
          QString("view mode %1").arg(int(mode)), [&] { window_->setViewMode(mode); }, mode);
    measure("grid view, then a pick", [&] {
      window_->setViewMode(ViewMode::Grid);
      window_->view()->pick(123456);
    });
    // The pick is centred and zoomed in on: its eps-circle spans many pixels, not one.
    const double eps_pixels = window_->parameters()->eps() / window_->view()->vtkWidget()->worldPerPixel();
    QVERIFY2(eps_pixels > 40, qPrintable(QString("eps spans %1 pixels").arg(eps_pixels)));
    measure("wheel zoom in and out", [&] {
      turnWheel(4);
      turnWheel(-6);
    });
    measure("re-colouring", [&] { window_->setPalette(PaletteKind::ColorBlind); });
    measure("reset view", [&] { window_->view()->resetCamera(); });
    // A run's own grid, drawn on the engine's cells (the Grid view waited 20-40 s for them at 5 M).
    measure("a cpu-grid run", [&] {
      window_->view()->pick(std::nullopt);
      window_->setViewMode(ViewMode::Scatter);
      QVERIFY(window_->parameters()->setEngine("cpu-grid"));
      window_->setConfirmAbovePairs(0);  // unattended, a large result would be refused
      window_->runJoin();
      QVERIFY(QTest::qWaitFor([&] { return !window_->runController()->running(); }, 4 * wait_ms()));
    });
    QVERIFY(window_->currentRun());
    measure(
        "the run's Grid view", [&] { window_->setViewMode(ViewMode::Grid); }, ViewMode::Grid);
    measure("the run's Partitions view", [&] { window_->setViewMode(ViewMode::Partitions); });
    // A run cancelled half a second in: the window keeps answering, and keeps the finished run.
    const RunRecordPtr finished = window_->currentRun();
    measure("a cpu-kmeans run, cancelled", [&] {
      QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
      window_->runJoin();
      QTest::qWait(500);
      QVERIFY(window_->runController()->running());
      window_->runController()->cancel();
      QVERIFY(QTest::qWaitFor([&] { return !window_->runController()->running(); }, wait_ms()));
    });
    QCOMPARE(window_->currentRun(), finished);
    measure("a new eps", [&] { window_->parameters()->setEps(window_->parameters()->eps() * 1.5); });
    for (const int tab : {1, 2, 0}) measure(QString("tab %1").arg(tab), [&] { window_->tabs()->setCurrentIndex(tab); });
    QVERIFY2(busy_.isEmpty(), qPrintable(busy_.join("\n")));
    QVERIFY2(slow_.isEmpty(), qPrintable(slow_.join("\n")));
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowResponsive, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_responsive.moc"
