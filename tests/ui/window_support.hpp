#pragma once
// The window-level tests on data: a window on the test registry, and point files opened in it.
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include "core/io/point_writers.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/main_window.hpp"

namespace simjoin::ui::testing {

// The fixture of a window-level test: a window on test_registry() and a folder for the point files
// it opens. Test classes derive from it (and declare Q_OBJECT themselves).
class WindowTest : public QObject {
 protected:
  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;

  // A new window, shown and exposed.
  void newWindow() {
    window_ = std::make_unique<MainWindow>(test_registry(), DeviceSummary{{}, "CPU only: test"});
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  // Writes `points` to a file called `name` (the format by its extension) and opens it in the
  // window, waiting for the load and for the window to lay itself out as the user sees it.
  void open(const PointSet& points, const QString& name) {
    const QString path = dir_.filePath(name);
    write_points(path.toStdString(), points);
    window_->openFile(path);
    window_->waitForTask();
    QVERIFY(window_->points());
    QCOMPARE(window_->points()->size(), points.size());
    QTest::qWait(100);
  }
};

}  // namespace simjoin::ui::testing
