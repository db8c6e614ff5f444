// The window on real-looking data: eps is any number >= 0 (typed plainly or in scientific
// notation, no cap), each file brings its own parameters from its scale, a run expected to be large
// asks first, and a file that cannot be read leaves the window with its error and no progress box.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include "core/points/eps_estimate.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "tests/ui/window_support.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/about_text.hpp"
#include "ui/panels/charts_tab.hpp"
#include "ui/panels/eps_spin_box.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/run_status.hpp"
#include "ui/panels/sweep_panel.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/views/vtk_view_widget.hpp"
#include "ui/workbench/background_task.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::WindowTest;

namespace {
// `points` with every coordinate times `scale` plus `offset`.
std::shared_ptr<const PointSet> rescaled(const PointSet& points, double scale, double offset) {
  auto result = std::make_shared<PointSet>(points);
  for (std::size_t i = 0; i < result->size(); ++i)
    for (std::size_t k = 0; k < result->dims(); ++k) result->point(i)[k] = points.point(i)[k] * scale + offset;
  return result;
}

// A progress dialog still on screen.
bool progress_box_visible() {
  for (QWidget* widget : QApplication::topLevelWidgets())
    if (qobject_cast<QProgressDialog*>(widget) && widget->isVisible()) return true;
  return false;
}

// Replaces the text of the eps box as a user types it, then presses Enter.
void type_eps(EpsSpinBox* box, const QString& text) {
  box->selectAll();
  QTest::keyClick(box, Qt::Key_Backspace);
  QTest::keyClicks(box, text);
  QTest::keyClick(box, Qt::Key_Return);
}

// The message box called `name` once it shows; null after 20 s without it.
QMessageBox* open_box(QWidget* parent, const QString& name) {
  QDeadlineTimer deadline(20000);
  while (!deadline.hasExpired()) {
    if (auto* box = parent->findChild<QMessageBox*>(name); box && box->isVisible()) return box;
    QTest::qWait(20);
  }
  return nullptr;
}

QAbstractButton* button(QMessageBox* box, const QString& text) {
  for (QAbstractButton* candidate : box->buttons())
    if (candidate->text() == text) return candidate;
  return nullptr;
}
}  // namespace

class TestWindowData : public WindowTest {
  Q_OBJECT

 private slots:
  void init() {
    QSettings().clear();
    qApp->setProperty("unattended", true);
  }
  void cleanup() { window_.reset(); }

  void epsBoxTakesAnyNumberFromZero() {
    newWindow();
    open(*clustered_points(500, 2, 40), "points.csv");
    ParametersPanel* parameters = window_->parameters();
    EpsSpinBox* box = parameters->epsBox();
    for (const auto& [text, value] : std::vector<std::pair<QString, double>>{
             {"2000", 2000}, {"5e3", 5000}, {"1e-9", 1e-9}, {"6.3447e+06", 6.3447e6}, {"0.25", 0.25}}) {
      type_eps(box, text);
      QCOMPARE(parameters->eps(), value);
      QCOMPARE(parse_eps(box->text()).value_or(-1), value);
    }
    // Nothing that eps may not be gets in; the value stays.
    int pos = 0;
    for (QString text : {"-3", "abc", "1,5"}) QCOMPARE(box->validate(text, pos), QValidator::Invalid);
    for (QString text : {"", "5e", "1e-"}) QCOMPARE(box->validate(text, pos), QValidator::Intermediate);
    type_eps(box, "abc");
    QCOMPARE(parameters->eps(), 0.25);
    QCOMPARE(box->text(), QString("0.25"));
    // 0 is eps too (the exact duplicates), with the logarithmic slider at its low end.
    type_eps(box, "0");
    QCOMPARE(parameters->eps(), 0.0);
    QCOMPARE(parameters->params().eps, 0.0);
    QCOMPARE(parameters->epsSlider()->value(), parameters->epsSlider()->minimum());
    box->stepBy(-1);  // no lower
    QCOMPARE(parameters->eps(), 0.0);
    box->stepBy(1);  // back to the last positive value
    QCOMPARE(parameters->eps(), 0.25);
    type_eps(box, "0");
    parameters->setEps(1e12);
    QCOMPARE(parameters->eps(), 1e12);
    QCOMPARE(box->text(), QString("1e+12"));
    QCOMPARE(parameters->epsSlider()->value(), parameters->epsSlider()->maximum());  // pinned, not capped
    QCOMPARE(parameters->params().eps, 1e12);
    box->stepBy(10);  // a decade up
    QCOMPARE(parameters->eps(), 1e13);

    // Sweeps take any range too.
    SweepPanel* sweep = window_->charts()->sweep();
    sweep->setEpsRange(500, 8000, 5, true);
    const SweepSpec spec = sweep->spec();
    QCOMPARE(spec.eps_values.front(), 500.0);
    QCOMPARE(spec.eps_values.back(), 8000.0);
    QVERIFY_THROWS_EXCEPTION(Error, sweep->setEpsRange(0, 1, 3, true));  // 0 has no logarithm
    sweep->setEpsRange(0, 1, 3, false);                                  // a linear range may start at 0
    QCOMPARE(sweep->spec().eps_values, (std::vector<double>{0, 0.5, 1}));
  }

  void parametersComeFromEachFile() {
    newWindow();
    QCOMPARE(window_->parameters()->engine(), QString("auto"));  // the default on a first launch
    const auto base = clustered_points(3000, 2, 41);
    // Earth-centred metres, then a unit-scale set: neither inherits the other's eps.
    const auto metres = rescaled(*base, 5e4, 6.3e6);
    const auto small = rescaled(*base, 1e-3, 0);
    RunControl control;
    const EpsEstimate metres_estimate = estimate_eps(*metres, control);
    const EpsEstimate small_estimate = estimate_eps(*small, control);

    open(*metres, "metres.csv");
    ParametersPanel* parameters = window_->parameters();
    QCOMPARE(parameters->eps(), metres_estimate.eps);
    QCOMPARE(parameters->k(), 0);
    QVERIFY(parameters->suggestion()->isVisible());
    QVERIFY(parameters->suggestion()->text().contains(format_eps(metres_estimate.eps)));
    // The slider spans this data's range: its ends are the estimate's.
    parameters->epsSlider()->setValue(parameters->epsSlider()->maximum());
    QCOMPARE(parameters->eps(), round_significant(metres_estimate.high(), 3));
    parameters->epsSlider()->setValue(0);
    QCOMPARE(parameters->eps(), round_significant(metres_estimate.low(), 3));
    parameters->setEps(1234);
    parameters->setK(9);

    open(*small, "small.csv");
    QCOMPARE(parameters->eps(), small_estimate.eps);
    QCOMPARE(parameters->k(), 0);
    QVERIFY(small_estimate.eps < 1e-2 * metres_estimate.eps);
    parameters->epsSlider()->setValue(parameters->epsSlider()->maximum());
    QCOMPARE(parameters->eps(), round_significant(small_estimate.high(), 3));
    // The suggestion link puts the estimate back.
    emit parameters->suggestion()->linkActivated("use");
    QCOMPARE(parameters->eps(), small_estimate.eps);
  }

  void largeResultAsksFirst() {
    newWindow();
    open(*clustered_points(1500, 2, 42), "points.csv");
    const std::uint64_t all_pairs = 1500ull * 1499 / 2;
    window_->setConfirmAbovePairs(1000);
    window_->parameters()->setEps(1e6);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);

    // Unattended (--quit): refused, and said so.
    window_->runJoin();
    window_->waitForTask();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!window_->currentRun());
    QVERIFY(window_->runStatus()->text().contains("pairs are expected"));

    // With a user: the estimate, and a run only once they agree.
    qApp->setProperty("unattended", false);
    window_->runJoin();
    QMessageBox* box = open_box(window_.get(), "largeResult");
    QVERIFY(box);
    QVERIFY(box->text().contains("1.12e+06"));  // the estimate: all pairs, as eps exceeds the diameter
    QVERIFY(!window_->runController()->running());
    QAbstractButton* run = button(box, "Run");
    QVERIFY(run);
    run->click();
    window_->waitForTask();
    QVERIFY(window_->currentRun());
    QCOMPARE(window_->currentRun()->result.stats.pairs, all_pairs);

    // Auto-run asks too, and Cancel leaves the history as it was.
    const int runs = window_->history()->rowCount();
    window_->runController()->setDebounceMs(20);
    window_->runStatus()->autoRun()->setChecked(true);
    window_->parameters()->setEps(2e6);
    box = open_box(window_.get(), "largeResult");
    QVERIFY(box);
    button(box, "Cancel")->click();
    QTest::qWait(200);
    QCOMPARE(window_->history()->rowCount(), runs);
    QVERIFY(!window_->runController()->running());
    qApp->setProperty("unattended", true);
  }

  void badFileKeepsTheWindow() {
    newWindow();
    qApp->setProperty("unattended", false);
    open(*clustered_points(500, 2, 43), "good.csv");
    const auto previous = window_->points();
    const QString bad = dir_.filePath("bad.csv");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x,y\n1,2\n3,4\n5,oops\n");
    file.close();
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    window_->openFile(bad);
    window_->waitForTask();
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).value<ErrorKind>(), ErrorKind::BadInput);
    QMessageBox* box = open_box(window_.get(), "error");
    QVERIFY(box);
    QVERIFY2(box->text().contains("bad.csv") && box->text().contains("line 4"), qPrintable(box->text()));
    QCOMPARE(window_->points(), previous);
    QVERIFY(window_->isVisible());
    // Past the progress dialog's minimum duration, nothing of the finished load shows.
    QTest::qWait(700);
    QVERIFY(!progress_box_visible());
    box->close();
    qApp->setProperty("unattended", true);
  }

  void progressBoxGoesWithItsTask() {
    newWindow();
    BackgroundTask task(
        "Loading",
        [](RunControl& control) {
          control.report(0.46);
          fail(ErrorKind::BadInput, "bad.csv: line 3: not a number");
        },
        window_.get());
    QSignalSpy finished(&task, &BackgroundTask::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(task.errorKind(), ErrorKind::BadInput);
    QTest::qWait(700);  // the dialog's minimum duration is 400 ms
    QVERIFY(!progress_box_visible());
  }

  // The panel keeps its controls in place as a run starts and ends: the progress bar and the run's
  // text have their room before they show.
  void controlsStayAsARunStartsAndEnds() {
    newWindow();
    open(*clustered_points(2000, 3, 41), "steady.csv");
    auto* cancel = window_->parameters()->findChild<QPushButton*>("cancel");
    QVERIFY(cancel);
    QCheckBox* auto_run = window_->runStatus()->autoRun();
    const auto where = [&] {
      QTest::qWait(50);
      return std::pair{cancel->mapTo(window_.get(), QPoint()), auto_run->mapTo(window_.get(), QPoint())};
    };
    const auto before = where();
    window_->runStatus()->started("cpu-grid");
    window_->runStatus()->progress(0.4, "a phase whose name is long enough to take more than one line of the panel");
    QCOMPARE(where(), before);
    window_->runJoin();
    window_->waitForTask();
    QCOMPARE(where(), before);
    window_->runStatus()->stopped(QString("a long ending, ").repeated(20));
    QCOMPARE(where(), before);
  }

  // A choice made in the window is saved at once; one made by the program (a command line, a lesson)
  // is not; each value's tooltip says where it came from.
  void settingsAreSavedOnlyForAPersonsChoice() {
    newWindow();
    open(*clustered_points(300, 2, 42), "sources.csv");
    ParametersPanel* parameters = window_->parameters();
    QVERIFY(parameters->source(Setting::Eps).contains("suggested by the data"));
    QVERIFY(parameters->source(Setting::Engine).contains("default"));
    QVERIFY(parameters->setEngine("cpu-kmeans"));
    parameters->setSource(Setting::Engine, "the command line (--engine), not saved");
    window_->setPalette(PaletteKind::ColorBlind, "the command line (--palette), not saved");
    window_->close();
    QVERIFY2(!QSettings().contains("engine") && !QSettings().contains("palette"),
             qPrintable(QSettings().allKeys().join(", ")));
    QVERIFY(!QSettings().contains("recentFiles"));  // opened by the program, not from the menu

    auto* box = parameters->findChild<QComboBox*>("engine");
    const int grid = box->findText("cpu-grid");
    box->setCurrentIndex(grid);
    emit box->activated(grid);  // as a person's choice in the box
    QCOMPARE(QSettings().value("engine").toString(), QString("cpu-grid"));
    QVERIFY(parameters->source(Setting::Engine).contains("chosen in the window"));
    QVERIFY(box->toolTip().contains("chosen in the window"));
    type_eps(parameters->epsBox(), "0.5");
    QVERIFY(parameters->source(Setting::Eps).contains("set in the window"));
    QVERIFY(parameters->epsBox()->toolTip().contains("set in the window"));
  }

  // Help > About: the version and the four papers by their printed titles.
  void aboutNamesVersionAndPapers() {
    const QString text = about_text("9.8.7");
    QVERIFY(text.contains("9.8.7"));
    for (const char* title :
         {"Improving the Performance of Similarity Joins Using Graphics Processing Unit",
          "GPU Accelerated Self-join for the Distance Similarity Metric", "Index-supported Similarity Join on Graphics",
          "A Fast Similarity Join Algorithm Using Graphics"})
      QVERIFY2(text.contains(title), title);
    QVERIFY(text.contains("docs/teaching.md"));
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowData, simjoin::ui::testing::Dialogs::Shown)
#include "test_window_data.moc"
