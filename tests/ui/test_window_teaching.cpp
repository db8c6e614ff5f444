// The teaching views as a user sees them in the window: picking a point in the Grid view keeps the
// cells on screen and draws its search; picking a copied point in the Replication view lists where it
// was copied; `simjoin-studio ... --pick INDEX --screenshot` makes the same picture from a command.
#include <QListWidget>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "core/join/engine.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
// Pixels of the image inside `area` that are shaded grid cells (blue, neither white nor grey) and
// that are the searched cells' green hatch.
struct Census {
  int cells = 0, searched_hatch = 0;
};

Census census(const QImage& image, const QRect& area) {
  Census c;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) {
      const QColor p = image.pixelColor(x, y);
      c.cells += p.blue() > p.red() + 25 && p.blue() > p.green() + 10;
      c.searched_hatch += p.green() > 110 && p.red() < 60 && p.blue() < 110 && p.green() > p.blue() + 40;
    }
  return c;
}

QRect view_area(MainWindow& window) {
  VtkViewWidget* gl = window.view()->vtkWidget();
  return QRect(gl->mapTo(&window, QPoint(0, 0)), gl->size());
}

void run_on_sample(MainWindow& window, const char* engine, double eps, int k, ViewMode mode) {
  window.openSample("blobs2d");
  window.waitForTask();
  QVERIFY(window.points());
  QVERIFY(window.parameters()->setEngine(engine));
  window.parameters()->setEps(eps);
  window.parameters()->setK(k);
  window.setViewMode(mode);
  window.runJoin();
  window.waitForTask();
  QVERIFY(window.currentRun());
}

QStringList legend_texts(MainWindow& window) {
  QStringList texts;
  QListWidget* legend = window.view()->legend();
  for (int r = 0; r < legend->count(); ++r) texts << legend->item(r)->text();
  return texts;
}
}  // namespace

class TestWindowTeaching : public QObject {
  Q_OBJECT

 private slots:
  void pickingInTheGridViewKeepsTheCells() {
    EngineRegistry registry;
    register_cpu_engines(registry);
    MainWindow window(registry, {{}, "CPU only: test"});
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    run_on_sample(window, "cpu-grid", 0.1, 0, ViewMode::Grid);
    QTest::qWait(200);
    const Census before = census(window.screenshot(), view_area(window));
    QVERIFY2(before.cells > 2000, qPrintable(QString::number(before.cells)));
    QVERIFY(window.view()->pick(17));
    QTest::qWait(200);
    const Census after = census(window.screenshot(), view_area(window));
    QVERIFY2(after.cells > before.cells / 2, qPrintable(QString("%1 -> %2").arg(before.cells).arg(after.cells)));
    QVERIFY(after.searched_hatch > 0);
    QVERIFY(legend_texts(window).filter("candidates tested").size() == 1);
  }

  void pickingACopiedPointListsItsCopies() {
    EngineRegistry registry;
    register_cpu_engines(registry);
    MainWindow window(registry, {{}, "CPU only: test"});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    run_on_sample(window, "cpu-kmeans", 0.1, 6, ViewMode::Replication);
    const PartitionStructure& s = *window.currentRun()->result.partitions;
    QVERIFY(!s.replica_point.empty());
    const std::uint32_t point = s.replica_point.front();
    QVERIFY(window.view()->pick(point));
    const QStringList texts = legend_texts(window);
    int copies = 0;
    for (std::size_t r = 0; r < s.replica_point.size(); ++r) {
      if (s.replica_point[r] != point) continue;
      ++copies;
      QVERIFY2(texts.filter(QString("copied into %1: h = ").arg(s.replica_partition[r])).size() == 1,
               qPrintable(texts.join("\n")));
    }
    QCOMPARE(texts.filter(QRegularExpression("^copied into")).size(), copies);
    QVERIFY(window.view()->describePoint(point).contains("copied into"));
  }

  void pickFromTheCommandLine() {
    QTemporaryDir dir;
    const QString shot = dir.filePath("grid.png");
    QProcess studio;
    studio.start(SIMJOIN_STUDIO, {"sample:blobs2d", "--engine", "cpu-grid", "--eps", "0.1", "--run", "--view", "grid",
                                  "--pick", "17", "--screenshot", shot, "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 0);
    const QImage image(shot);
    QVERIFY(!image.isNull());
    QVERIFY(census(image, image.rect()).searched_hatch > 0);
    studio.start(SIMJOIN_STUDIO, {"sample:blobs2d", "--pick", "3000", "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 2);
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowTeaching, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_teaching.moc"
