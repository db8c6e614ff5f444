// simjoin-studio from the command line, as scripts use it: a run's --stats agree with
// `simjoin join --count-only` for eps from 1e-9 to 1e9 times the data's extent (no cap), a file that
// cannot be read exits with 3 after its error, a run above --max-pairs is refused with 4, and the
// exports come at the size and dpi asked for.
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>

#include "core/frame/join_frame.hpp"
#include "core/io/load_points.hpp"
#include "core/io/point_writers.hpp"
#include "core/points/eps_estimate.hpp"
#include "core/points/point_set.hpp"
#include "tests/ui/run/test_run_support.hpp"

using namespace simjoin;

namespace {
struct Finished {
  int code = -1;
  QString out, err;
};

Finished run(const QString& program, const QStringList& arguments,
             const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(program, arguments);
  Finished result;
  if (!process.waitForFinished(120000)) {
    process.kill();
    process.waitForFinished();
    result.err = "timed out";
    return result;
  }
  result.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  result.out = QString::fromLocal8Bit(process.readAllStandardOutput());
  result.err = QString::fromLocal8Bit(process.readAllStandardError());
  return result;
}

QJsonObject read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}
}  // namespace

class TestStudioCommand : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString points_;  // metre-scale points far from the origin, with duplicates
  double extent_ = 0;

 private slots:
  void initTestCase() {
    const auto clusters = ui::testing::clustered_points(600, 3, 51);
    PointSet points(clusters->size() + 40, 3);
    for (std::size_t i = 0; i < points.size(); ++i)
      for (std::size_t k = 0; k < 3; ++k) points.point(i)[k] = 4.2e6 + 120 * clusters->point(i % clusters->size())[k];
    points_ = dir_.filePath("points.csv");
    write_points(points_.toStdString(), points);
    const Bounds64 bounds = compute_bounds(points);
    for (std::size_t k = 0; k < 3; ++k) extent_ = std::max(extent_, bounds.high[k] - bounds.low[k]);
  }

  void statsAgreeWithTheCliAtAnyEps() {
    for (const double factor : {1e-9, 1e-6, 1e-3, 1e-2, 0.1, 1.0, 1e3, 1e9}) {
      const double eps = round_significant(factor * extent_, 6);
      const QString e = QString::number(eps, 'g', 17);
      const QString stats = dir_.filePath("stats.json");
      QFile::remove(stats);
      const Finished studio =
          run(SIMJOIN_STUDIO, {points_, "--eps", e, "--engine", "auto", "--run", "--stats", stats, "--quit"});
      QVERIFY2(studio.code == 0, qPrintable(QString("eps %1: exit %2: %3").arg(e).arg(studio.code).arg(studio.err)));
      const QJsonObject json = read_json(stats);
      QCOMPARE(json["eps"].toDouble(), eps);
      QCOMPARE(json["input"].toString(), points_);
      QVERIFY(json.contains("seconds_total") && json.contains("phases") && json.contains("engine"));

      const Finished cli =
          run(SIMJOIN_CLI, {"join", "--input", points_, "--eps", e, "--engine", "auto", "--count-only"});
      QVERIFY2(cli.code == 0, qPrintable(cli.err));
      const QRegularExpressionMatch pairs = QRegularExpression("pairs:\\s+(\\d+)").match(cli.out);
      QVERIFY(pairs.hasMatch());
      QVERIFY2(json["pairs"].toInteger() == pairs.captured(1).toLongLong(),
               qPrintable(QString("eps %1: studio %2 pairs, simjoin join %3")
                              .arg(e)
                              .arg(json["pairs"].toInteger())
                              .arg(pairs.captured(1))));
    }
  }

  void badFileExitsWithThree() {
    const QString bad = dir_.filePath("bad.csv");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x,y\n1,2\n3,oops\n");
    file.close();
    const Finished studio = run(SIMJOIN_STUDIO, {bad, "--run", "--quit"});
    QCOMPARE(studio.code, 3);
    QVERIFY2(studio.err.contains("bad.csv") && studio.err.contains("line 3"), qPrintable(studio.err));
    QCOMPARE(run(SIMJOIN_STUDIO, {dir_.filePath("missing.csv"), "--quit"}).code, 3);
    QCOMPARE(run(SIMJOIN_STUDIO, {points_, "--eps", "-1", "--quit"}).code, 2);
  }

  void largeRunIsRefusedUnattended() {
    const Finished studio = run(SIMJOIN_STUDIO, {points_, "--eps", "1e9", "--run", "--max-pairs", "1000", "--quit"});
    QCOMPARE(studio.code, 4);
    QVERIFY2(studio.err.contains("pairs are expected") && studio.err.contains("--max-pairs"), qPrintable(studio.err));
  }

  // An engine that cannot run here is named with the reason `simjoin engines` gives (exit 2).
  void unavailableEngineSaysWhy() {
    const Finished unknown = run(SIMJOIN_STUDIO, {points_, "--engine", "no-such-engine", "--quit"});
    QCOMPARE(unknown.code, 2);
    QVERIFY2(unknown.err.contains("unknown engine 'no-such-engine'; known engines: cpu-bruteforce"),
             qPrintable(unknown.err));
    const Finished engines = run(SIMJOIN_CLI, {"engines"});
    const QRegularExpressionMatch why =
        QRegularExpression("^gpu-grid .* missing .*\\n\\s+why: (.+)$", QRegularExpression::MultilineOption)
            .match(engines.out);
    if (!why.hasMatch()) QSKIP("gpu-grid can run here, or this build has no GPU engines (unknown, as above)");
    const Finished studio = run(SIMJOIN_STUDIO, {points_, "--engine", "gpu-grid", "--quit"});
    QCOMPARE(studio.code, 2);
    QVERIFY2(studio.err.contains("gpu-grid is not available: " + why.captured(1).trimmed()), qPrintable(studio.err));
  }

  // One rule for k in both: the engine's own (cpu-kmeans takes k = 5000), never a silent cap.
  void largeKFollowsTheCli() {
    const QString studio_stats = dir_.filePath("k-studio.json"), cli_stats = dir_.filePath("k-cli.json");
    const QStringList common = {"--eps", QString::number(extent_ / 20), "--engine", "cpu-kmeans", "--k", "5000"};
    const Finished studio =
        run(SIMJOIN_STUDIO, QStringList{points_} + common + QStringList{"--run", "--stats", studio_stats, "--quit"});
    QVERIFY2(studio.code == 0, qPrintable(studio.err));
    const Finished cli =
        run(SIMJOIN_CLI, QStringList{"join", "--input", points_} + common + QStringList{"--stats", cli_stats});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QCOMPARE(read_json(studio_stats)["k"].toInteger(), read_json(cli_stats)["k"].toInteger());
    QCOMPARE(read_json(studio_stats)["pairs"].toInteger(), read_json(cli_stats)["pairs"].toInteger());
  }

  // --export-view and --export-chart write the view and the chart in the format the extension names.
  void exportsViewAndChartByExtension() {
    const QString view_png = dir_.filePath("view.png"), view_pdf = dir_.filePath("view.pdf");
    const QString chart_svg = dir_.filePath("chart.svg"), chart_pdf = dir_.filePath("chart.pdf");
    for (const auto& [view, chart] : {std::pair{view_png, chart_svg}, std::pair{view_pdf, chart_pdf}}) {
      const Finished done = run(SIMJOIN_STUDIO, {points_, "--engine", "cpu-kmeans", "--run", "--view", "partitions",
                                                 "--export-view", view, "--export-chart", chart, "--quit"});
      QVERIFY2(done.code == 0, qPrintable(done.err));
    }
    const QImage image(view_png);
    QVERIFY(image.width() > 400 && image.height() > 300);
    const auto starts_with = [](const QString& path, const QByteArray& magic) {
      QFile file(path);
      return file.open(QIODevice::ReadOnly) && file.read(magic.size()) == magic;
    };
    QVERIFY(starts_with(view_pdf, "%PDF"));
    QVERIFY(starts_with(chart_pdf, "%PDF"));
    QFile svg(chart_svg);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    // Another extension is a usage error before anything runs.
    const Finished refused = run(SIMJOIN_STUDIO, {points_, "--export-view", dir_.filePath("view.jpg"), "--quit"});
    QCOMPARE(refused.code, 2);
    QVERIFY(refused.err.contains(".png, .svg or .pdf"));
  }

  // --export-size and --export-dpi: the view and the chart laid out for that printed size.
  void exportsAtAChosenSizeAndDpi() {
    const QString view = dir_.filePath("sized-view.png"), chart = dir_.filePath("sized-chart.svg");
    const Finished done =
        run(SIMJOIN_STUDIO, {points_, "--engine", "cpu-kmeans", "--run", "--view", "partitions", "--export-view", view,
                             "--export-chart", chart, "--export-size", "1500x900", "--export-dpi", "300", "--quit"});
    QVERIFY2(done.code == 0, qPrintable(done.err));
    const QImage image(view);
    QCOMPARE(image.size(), QSize(1500, 900));
    QCOMPARE(image.dotsPerMeterX(), qRound(300 / 0.0254));
    QFile svg(chart);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("width=\"127mm\" height=\"76.2mm\""));  // 5 x 3 inches
    for (const QStringList& bad : {QStringList{"--export-size", "1500"}, QStringList{"--export-size", "8x8"},
                                   QStringList{"--export-dpi", "0"}}) {
      const Finished refused = run(SIMJOIN_STUDIO, QStringList{points_, "--export-view", view, "--quit"} + bad);
      QCOMPARE(refused.code, 2);
      QVERIFY2(refused.err.contains(bad.first()), qPrintable(refused.err));
    }
  }

  // Without a display: figures are made on the offscreen platform by themselves (vector SVG, a
  // screenshot drawn without OpenGL); a window alone is refused with exit 2 and what to do.
  void headlessFiguresAndRefusal() {
    QProcessEnvironment no_display = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) no_display.remove(name);
    const QString view = dir_.filePath("headless-view.svg"), shot = dir_.filePath("headless.png");
    const QString chart = dir_.filePath("headless-chart.png");
    const Finished done = run(
        SIMJOIN_STUDIO,
        {points_, "--engine", "cpu-kmeans", "--run", "--view", "partitions", "--export-view", view, "--export-chart",
         chart, "--screenshot", shot, "--export-size", "3.5x2.4in", "--export-dpi", "300", "--quit"},
        no_display);
    QVERIFY2(done.code == 0, qPrintable(done.err));
    QFile svg(view);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<text") && !text.contains("<image"));
    QCOMPARE(QImage(chart).size(), QSize(1050, 720));
    QVERIFY(!QImage(shot).isNull());
    const Finished refused = run(SIMJOIN_STUDIO, {points_}, no_display);
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains("QT_QPA_PLATFORM=offscreen") && refused.err.contains("xvfb-run"),
             qPrintable(refused.err));
  }

  // A file that cannot be loaded (missing, a field that is no number, empty) has no figure: every export exits 3
  // with the file's error and writes nothing, the view's figure included.
  void exportsOfBadDataWriteNothing() {
    const QString bad_number = dir_.filePath("bad-number.csv"), empty = dir_.filePath("empty.csv");
    for (const auto& [path, text] :
         {std::pair{bad_number, QByteArray("1,2\n3,abc\n")}, std::pair{empty, QByteArray()}}) {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(text);
    }
    for (const QString& bad : {dir_.filePath("missing.csv"), bad_number, empty}) {
      const QString view = dir_.filePath("bad-view.png"), chart = dir_.filePath("bad-chart.svg");
      const QString shot = dir_.filePath("bad-shot.png");
      const Finished done = run(SIMJOIN_STUDIO, {bad, "--run", "--export-view", view, "--export-chart", chart,
                                                 "--screenshot", shot, "--quit"});
      QVERIFY2(done.code == 3, qPrintable(QString("%1: exit %2: %3").arg(bad).arg(done.code).arg(done.err)));
      QVERIFY2(done.err.contains(QFileInfo(bad).fileName()), qPrintable(done.err));
      for (const QString& output : {view, chart, shot}) QVERIFY2(!QFile::exists(output), qPrintable(output));
      QVERIFY(QDir(dir_.path()).entryList({"*.tmp*", "*~"}).isEmpty());
    }
    // No file at all: nothing to draw, said before anything runs.
    const Finished none = run(SIMJOIN_STUDIO, {"--export-view", dir_.filePath("none.png"), "--quit"});
    QCOMPARE(none.code, 2);
    QVERIFY2(none.err.contains("--export-view needs a point file"), qPrintable(none.err));
  }

  // A run given options on the command line saves nothing: the settings file stays as it was (here
  // in a folder of the test's own), and the next run without options gets the saved engine back.
  void commandLineRunsSaveNothing() {
    QTemporaryDir config;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("XDG_CONFIG_HOME", config.path());
    const QString settings = config.filePath("Simjoin/Simjoin Studio.conf");
    const QString stats = dir_.filePath("settings-stats.json");
    const QStringList given = {
        points_, "--engine", "cpu-kmeans", "--palette", "colorblind", "--eps", QString::number(extent_ / 30),
        "--run", "--stats",  stats,        "--quit"};
    Finished done =
        run(SIMJOIN_STUDIO, given + QStringList{"--screenshot", dir_.filePath("settings.png")}, environment);
    QVERIFY2(done.code == 0, qPrintable(done.err));
    QVERIFY2(!QFile::exists(settings), qPrintable(settings + " was written"));

    QVERIFY(QDir().mkpath(QFileInfo(settings).path()));
    QFile file(settings);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray saved = "[General]\nengine=cpu-grid\npalette=distinct\n";
    file.write(saved);
    file.close();
    done = run(SIMJOIN_STUDIO, given, environment);
    QVERIFY2(done.code == 0, qPrintable(done.err));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), saved);
    file.close();
    QCOMPARE(read_json(stats)["engine"].toString(), QString("cpu-kmeans"));
    done = run(SIMJOIN_STUDIO, {points_, "--eps", QString::number(extent_ / 30), "--run", "--stats", stats, "--quit"},
               environment);
    QVERIFY2(done.code == 0, qPrintable(done.err));
    QCOMPARE(read_json(stats)["engine"].toString(), QString("cpu-grid"));  // the saved choice, not the last run's
  }

  // --export-neighbours: the picked row's neighbours within eps, the exact test's, nearest first, with
  // their float64 distances and coordinates.
  void neighboursOfThePickAreExported() {
    const PointSet points = load_points(points_.toStdString());
    const double eps = round_significant(extent_ / 15, 6);
    const std::uint32_t pick = std::uint32_t(ui::testing::seed() % points.size());
    const QString csv = dir_.filePath("neighbours.csv");
    const Finished done = run(SIMJOIN_STUDIO, {points_, "--eps", QString::number(eps, 'g', 17), "--pick",
                                               QString::number(pick), "--export-neighbours", csv, "--quit"});
    QVERIFY2(done.code == 0, qPrintable(done.err));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.front().startsWith("id,distance,"));
    const ExactBand oracle = oracle_band(eps);
    std::set<std::uint32_t> expected, found;
    for (std::uint32_t q = 0; q < points.size(); ++q)
      if (q != pick && oracle.oracle_within(points.point(pick), points.point(q), points.dims())) expected.insert(q);
    double previous = 0;
    for (qsizetype l = 1; l < lines.size(); ++l) {
      const QStringList fields = lines[l].split(',');
      QCOMPARE(fields.size(), qsizetype(2 + points.dims()));
      const std::uint32_t q = fields[0].toUInt();
      found.insert(q);
      double sum = 0;
      for (std::size_t k = 0; k < points.dims(); ++k) {
        const double d = points.point(pick)[k] - points.point(q)[k];
        sum += d * d;
        QCOMPARE(fields[2 + qsizetype(k)].toDouble(), points.point(q)[k]);
      }
      QCOMPARE(fields[1].toDouble(), std::sqrt(sum));
      QVERIFY(fields[1].toDouble() >= previous);
      previous = fields[1].toDouble();
    }
    QVERIFY(!expected.empty());
    QVERIFY(found == expected);
    const Finished no_pick = run(SIMJOIN_STUDIO, {points_, "--export-neighbours", csv, "--quit"});
    QCOMPARE(no_pick.code, 2);
  }

  // A session saved (data, eps, k, engine, view, pick, palette) and reopened shows the same window.
  void sessionReopensTheSameWindow() {
    const QString session = dir_.filePath("session.json");
    const QString first = dir_.filePath("session-first.png"), second = dir_.filePath("session-second.png");
    const QString eps = QString::number(round_significant(extent_ / 25, 6), 'g', 17);
    Finished done =
        run(SIMJOIN_STUDIO, {points_, "--eps", eps, "--k", "7", "--engine", "cpu-kmeans", "--view", "grid", "--palette",
                             "colorblind", "--pick", "12", "--save-session", session, "--screenshot", first, "--quit"});
    QVERIFY2(done.code == 0, qPrintable(done.err));
    const QJsonObject json = read_json(session);
    QCOMPARE(json["data"].toString(), points_);
    QCOMPARE(json["eps"].toDouble(), eps.toDouble());
    QCOMPARE(json["k"].toInt(), 7);
    QCOMPARE(json["engine"].toString(), QString("cpu-kmeans"));
    QCOMPARE(json["view"].toString(), QString("grid"));
    QCOMPARE(json["pick"].toInt(), 12);
    QCOMPARE(json["palette"].toString(), QString("colorblind"));
    done = run(SIMJOIN_STUDIO, {"--open-session", session, "--screenshot", second, "--quit"});
    QVERIFY2(done.code == 0, qPrintable(done.err));
    const QImage a(first), b(second);
    QVERIFY(!a.isNull());
    QVERIFY2(a == b, "the reopened session's screenshot differs");
    // A session that is not one is refused, naming the field.
    QFile bad(dir_.filePath("bad-session.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QJsonDocument(QJsonObject{{"simjoin_session", 1}, {"data", points_}, {"eps", -2}}).toJson());
    bad.close();
    done = run(SIMJOIN_STUDIO, {"--open-session", bad.fileName(), "--screenshot", dir_.filePath("no.png"), "--quit"});
    QCOMPARE(done.code, 3);
    QVERIFY2(done.err.contains("\"eps\""), qPrintable(done.err));
    QVERIFY(!QFile::exists(dir_.filePath("no.png")));
  }
};

QTEST_GUILESS_MAIN(TestStudioCommand)
#include "test_studio_command.moc"
