// Lessons as a user opens them: every entry of the lesson table from File > Lessons and from
// `--lesson NAME`, on the built-in samples (the real ones included) with CPU engines; the approximate
// engine's missed pairs in the Replication view; and why the view shows a single partition.
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/point_writers.hpp"
#include "core/join/engine.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/format/count_text.hpp"
#include "ui/lessons/lesson_data.hpp"
#include "ui/lessons/open_lesson.hpp"
#include "ui/lessons/recall_by_k.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/samples.hpp"
#include "ui/session.hpp"
#include "ui/views/missed_pairs.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
// The legend's rows as the view builds them.
QStringList legend_texts(MainWindow& window) {
  QStringList texts;
  for (const LegendEntry& entry : window.view()->layers().legend) texts << QString::fromStdString(entry.label);
  return texts;
}
}  // namespace

class TestWindowLessons : public QObject {
  Q_OBJECT

  EngineRegistry registry_;

  std::unique_ptr<MainWindow> newWindow() {
    auto window = std::make_unique<MainWindow>(registry_, DeviceSummary{{}, "CPU only: test"});
    window->resize(1400, 900);
    window->show();
    return window;
  }

  void run(MainWindow& window, const char* sample, const char* engine, double eps, int k) {
    window.openSample(sample);
    window.waitForTask();
    QVERIFY(window.parameters()->setEngine(engine));
    window.parameters()->setEps(eps);
    window.parameters()->setK(k);
    window.setViewMode(ViewMode::Replication);
    window.runJoin();
    window.waitForTask();
    QVERIFY(window.currentRun());
  }

 private slots:
  void initTestCase() { register_cpu_engines(registry_); }

  void realSamplesLoad() {
    QVERIFY(sample_names().contains("iris.csv"));
    QVERIFY(sample_names().contains("globe3d.csv"));
    const PointSet iris = load_sample("iris");
    QCOMPARE(iris.size(), std::size_t(150));
    QCOMPARE(iris.dims(), std::size_t(4));
    QCOMPARE(iris.column_names.front(), std::string("sepal_length"));
    const PointSet globe = load_sample("globe3d");
    QCOMPARE(globe.dims(), std::size_t(3));
    QCOMPARE(globe.size(), std::size_t(418));
    // Every place lies on the sphere of the Earth's radius (to the file's 0.1 km rounding).
    for (std::size_t i = 0; i < globe.size(); ++i) {
      const double* p = globe.point(i);
      QVERIFY(std::abs(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) - 6371.0) < 0.2);
    }
  }

  void everyLessonOpensFromTheMenu() {
    auto window = newWindow();
    QMenu* menu = nullptr;
    for (QMenu* m : window->menuBar()->findChildren<QMenu*>())
      if (m->title() == "&Lessons") menu = m;
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), qsizetype(lessons().size()));
    for (int i = 0; i < menu->actions().size(); ++i) {
      const Lesson& lesson = lessons()[std::size_t(i)];
      QCOMPARE(menu->actions()[i]->text(), QString::fromStdString(lesson.title));
      menu->actions()[i]->trigger();  // opens the lesson and waits for its runs
      const auto shown = window->currentRun();
      QVERIFY(shown);
      QCOMPARE(shown->result.stats.engine, lesson.engines.back());
      QCOMPARE(shown->result.stats.eps, lesson.eps);
      QVERIFY(QString::fromStdString(window->points()->source).contains(QString::fromStdString(lesson.sample)));
      QVERIFY(window->view()->picked() == lesson.pick);
      auto* panel = window->findChild<LessonPanel*>();
      QVERIFY(panel && panel->isVisible());
      QVERIFY(panel->text().contains(QString::fromStdString(lesson.title).toHtmlEscaped()));
      // What each of its runs measured.
      for (const std::string& engine : lesson.engines)
        QVERIFY2(panel->text().contains(QString::fromStdString(engine) + ": "), qPrintable(panel->text()));
      if (!lesson.recall_ks.empty()) QVERIFY(panel->text().contains("Recall of cpu-kmeans-approx"));
    }
  }

  // The unicomp lesson's own point shows what unicomp saves, and its 3 x 3 block fills the view enough
  // to read (not ~17 pixels on the whole map).
  void unicompLessonShowsASaving() {
    auto window = newWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(open_lesson(*window, *find_lesson("unicomp")));
    const Layers& layers = window->view()->layers();
    QStringList facts;
    for (const LegendEntry& fact : layers.picked_facts) facts << QString::fromStdString(fact.label);
    const QRegularExpression skips("^unicomp skips (\\d+) cells .*: (\\d[\\d,]*) tests saved$");
    const QStringList found = facts.filter(skips);
    QVERIFY2(found.size() == 1, qPrintable(facts.join("\n")));
    const QRegularExpressionMatch match = skips.match(found.front());
    QVERIFY2(match.captured(1).toInt() > 0 && match.captured(2) != "0", qPrintable(found.front()));
    const double block = 3 * window->currentRun()->result.grid->cell_width;
    const double pixels = block / window->view()->vtkWidget()->worldPerPixel();
    QVERIFY2(pixels > 150, qPrintable(QString("the 3 x 3 block spans %1 pixels").arg(pixels)));
  }

  void recallAgainstKIsTheApproximateEnginesShare() {
    const PointSet points = load_sample("timezones");
    const auto table = recall_by_k(points, 12, {1, 8, 32});
    QCOMPARE(table.size(), std::size_t(3));
    QCOMPARE(table[0].recall(), 1.0);  // one partition misses nothing
    QCOMPARE(table[0].exact, count_pairs("cpu-bruteforce", points, 12, 0));
    QCOMPARE(table[2].pairs, count_pairs("cpu-kmeans-approx", points, 12, 32));
    QVERIFY(table[2].pairs < table[2].exact);
  }

  void approximateEngineShowsItsMissedPairs() {
    auto window = newWindow();
    run(*window, "blobs2d", "cpu-kmeans-approx", 0.2, 8);
    const auto record = window->currentRun();
    const std::uint64_t exact = count_pairs("cpu-bruteforce", *window->points(), 0.2, 0);
    const std::uint64_t missed = exact - record->result.stats.pairs;
    QVERIFY(missed > 0);
    const MissedPairs found = missed_pairs(*window->points(), *record->result.partitions, 0.2);
    QCOMPARE(std::uint64_t(found.missed.size()), missed);
    for (const Pair& pair : found.missed)
      QVERIFY(record->result.partitions->membership[pair.i] != record->result.partitions->membership[pair.j]);
    // One line per missed pair (the approximate engine draws no other lines but the bisectors' edges).
    const QStringList texts = legend_texts(*window);
    const QString expected = QString("missed: %1 of ").arg(QString::fromStdString(count_text(missed)));
    QVERIFY2(texts.filter(expected).size() == 1, qPrintable(texts.join("\n")));
    QVERIFY(texts.filter("recall").size() == 1);
    QVERIFY(window->view()->layers().segments.size() / 4 >= missed);
    // The exact engine draws no missed pairs.
    run(*window, "blobs2d", "cpu-kmeans", 0.2, 8);
    QVERIFY(legend_texts(*window).filter("missed:").isEmpty());
  }

  void onePartitionIsExplained() {
    auto window = newWindow();
    run(*window, "blobs2d", "cpu-kmeans", 0.2, 0);  // 3,000 points: automatic k picks 1
    QCOMPARE(window->currentRun()->result.partitions->k, std::size_t(1));
    const auto& notes = window->view()->layers().notes;
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
      return note.find("automatic k chose k = 1") != std::string::npos;
    }));
    run(*window, "blobs2d", "cpu-kmeans", 0.2, 6);
    const auto& more = window->view()->layers().notes;
    QVERIFY(std::none_of(more.begin(), more.end(),
                         [](const std::string& note) { return note.find("One partition") != std::string::npos; }));
  }

  void lessonFromTheCommandLine() {
    QTemporaryDir dir;
    const QString shot = dir.filePath("lesson.png");
    QProcess studio;
    studio.start(SIMJOIN_STUDIO, {"--lesson", "unicomp", "--screenshot", shot, "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 0);
    QVERIFY(!QImage(shot).isNull());
    studio.start(SIMJOIN_STUDIO, {"--lesson", "no-such-lesson", "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 2);
    QVERIFY(studio.readAllStandardError().contains(QByteArray::fromStdString(lesson_names())));
  }

  // Every lesson runs on a file of the user's (3-D and 64-D) rather than on its sample: the file's
  // points, the eps the data suggests, a point of a dense region picked; the panel offers the sample.
  void everyLessonRunsOnAUsersFile() {
    QTemporaryDir dir;
    for (const std::size_t dims : {std::size_t(3), std::size_t(64)}) {
      const QString path = dir.filePath(QString("user%1d.csv").arg(dims));
      write_points(path.toStdString(),
                   *simjoin::ui::testing::clustered_points(dims == 3 ? 1500 : 500, dims, 70 + dims));
      auto window = newWindow();
      window->openFile(path);
      window->waitForTask();
      const auto points = window->points();
      QVERIFY(points);
      const double eps = window->parameters()->eps();
      for (const Lesson& lesson : lessons()) {
        QVERIFY2(open_lesson(*window, lesson), qPrintable(QString::fromStdString(lesson.name)));
        QCOMPARE(window->points(), points);
        const auto shown = window->currentRun();
        QCOMPARE(shown->request.a, points);
        QCOMPARE(shown->result.stats.engine, lesson.engines.back());
        QCOMPARE(shown->result.stats.eps, eps);
        QCOMPARE(window->view()->picked(), std::optional<std::uint32_t>(probe_density(*points, eps).densest));
        QVERIFY(neighbours_within(*points, *window->view()->picked(), eps).size() > 0);
        const QString text = window->findChild<LessonPanel*>()->text();
        QVERIFY2(text.contains(QString("user%1d.csv").arg(dims)) && text.contains("Open the lesson on its sample"),
                 qPrintable(text));
      }
      // The offered sample, on request.
      emit window->findChild<LessonPanel*>()->linkActivated("sample");
      QVERIFY(
          QString::fromStdString(window->points()->source).contains(QString::fromStdString(lessons().back().sample)));
    }
  }

  // A lesson that cannot run on the file says why, keeps the file and offers its sample, in the window
  // and from the command line (exit 3), which never loads the sample in the file's place.
  void aLessonThatCannotRunSaysWhy() {
    QTemporaryDir dir;
    const QString tiny = dir.filePath("tiny.csv");
    write_points(tiny.toStdString(), *simjoin::ui::testing::clustered_points(6, 2, 90));
    auto window = newWindow();
    window->openFile(tiny);
    window->waitForTask();
    const auto points = window->points();
    QVERIFY(!open_lesson(*window, *find_lesson("replication-2d")));
    QCOMPARE(window->points(), points);
    QVERIFY(window->findChild<LessonPanel*>()->text().contains("cannot run here"));

    QProcess studio;
    studio.start(SIMJOIN_STUDIO, {tiny, "--lesson", "unicomp", "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitCode(), 3);
    const QByteArray err = studio.readAllStandardError();
    QVERIFY2(err.contains("cannot run on this file") && err.contains("--lesson unicomp"), err.constData());
    // On a file it can run on, the session it leaves names the file, not the sample.
    const QString user = dir.filePath("user.csv"), session = dir.filePath("lesson-session.json");
    write_points(user.toStdString(), *simjoin::ui::testing::clustered_points(800, 3, 91));
    studio.start(SIMJOIN_STUDIO, {user, "--lesson", "unicomp", "--save-session", session, "--quit"});
    QVERIFY(studio.waitForFinished(120000));
    QVERIFY2(studio.exitCode() == 0, studio.readAllStandardError().constData());
    QCOMPARE(read_session(session.toStdString()).data, QFileInfo(user).absoluteFilePath());
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowLessons, simjoin::ui::testing::Dialogs::Unattended)
#include "test_window_lessons.moc"
