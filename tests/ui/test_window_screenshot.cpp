// Starts the real window, loads a sample, grabs it, and checks that the points' colour appears in
// the view where points are drawn while the background stays white: not blank, not garbage.
#include <QtTest>

#include "core/join/engine.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/main_window.hpp"
#include "ui/views/palette.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;

class TestWindowScreenshot : public QObject {
  Q_OBJECT

 private slots:
  void viewShowsPoints() {
    EngineRegistry registry;
    register_cpu_engines(registry);
    ui::MainWindow window(registry, {{}, "CPU only: test"});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openSample("generated: blobs 2-D");
    window.waitForTask();
    QVERIFY(window.points());
    QTest::qWait(300);
    const QImage shot = window.screenshot();
    const QString out = qEnvironmentVariable("SIMJOIN_SCREENSHOT", QDir::temp().filePath("simjoin-studio-test.png"));
    shot.save(out);

    ui::VtkViewWidget* gl = window.view()->vtkWidget();
    const QRect area(gl->mapTo(&window, QPoint(0, 0)), gl->size());
    const ui::Layers& layers = window.view()->layers();
    int on_point = 0, hits = 0;
    for (std::size_t v = 0; v < layers.ids.size(); v += 40) {
      // Where the renderer puts this point (world -> display), in window pixels.
      auto* renderer = gl->renderer();
      renderer->SetWorldPoint(layers.xy[2 * v], layers.xy[2 * v + 1], 0, 1);
      renderer->WorldToDisplay();
      const double* d = renderer->GetDisplayPoint();
      const QPoint p = area.topLeft() + QPoint(int(d[0] / gl->devicePixelRatioF()),
                                               gl->height() - 1 - int(d[1] / gl->devicePixelRatioF()));
      ++on_point;
      const QColor c = shot.pixelColor(p);
      const ui::Rgb e = ui::kPlainPoint;
      if (std::abs(c.red() - e[0]) < 40 && std::abs(c.green() - e[1]) < 40 && std::abs(c.blue() - e[2]) < 40) ++hits;
    }
    QVERIFY2(hits > on_point * 8 / 10, qPrintable(QString("%1 of %2 points drawn").arg(hits).arg(on_point)));
    // Background: the view's corners are white.
    const QColor corner = shot.pixelColor(area.topLeft() + QPoint(3, 3));
    QCOMPARE(corner, QColor(Qt::white));
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowScreenshot, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_screenshot.moc"
