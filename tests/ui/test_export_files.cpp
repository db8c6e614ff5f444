// Every export writes a file that reads back to the numbers it was made from: chart images decode,
// chart data and pair lists hold the engine's values, neighbour lists and statistics match the run.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cstring>

#include "core/base/error.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/phase_csv.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/charts/sweep_csv.hpp"
#include "ui/export/image_export.hpp"
#include "ui/export/image_size_dialog.hpp"
#include "ui/export/run_export.hpp"
#include "ui/run/run_execution.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::make_request;
using simjoin::ui::testing::test_registry;

namespace {
QByteArray read_bytes(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A sweep of the oracle over `eps` on n clustered points in 2-D.
SweepSpec bruteforce_sweep(std::vector<double> eps, std::size_t n) {
  SweepSpec spec;
  spec.engines = {"cpu-bruteforce"};
  spec.eps_values = std::move(eps);
  spec.a = clustered_points(n, 2);
  return spec;
}

// The share of pixels that are not white.
double inked_fraction(const QImage& image) {
  qsizetype inked = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) inked += image.pixel(x, y) != qRgb(255, 255, 255);
  return double(inked) / (qsizetype(image.width()) * image.height());
}

// The height of the topmost run of rows with ink: the first line of the chart's title.
int first_text_height(const QImage& image) {
  const auto inked = [&](int y) {
    for (int x = 0; x < image.width(); ++x)
      if (image.pixel(x, y) != qRgb(255, 255, 255)) return true;
    return false;
  };
  int top = 0;
  while (top < image.height() && !inked(top)) ++top;
  int bottom = top;
  while (bottom < image.height() && inked(bottom)) ++bottom;
  return bottom - top;
}

// Pair files as written by core/io/pair_writers.hpp, decoded independently.
std::vector<Pair> read_pairs(const QString& path) {
  const QByteArray bytes = read_bytes(path);
  std::vector<Pair> pairs;
  if (path.endsWith(".csv")) {
    const QList<QByteArray> lines = bytes.split('\n');
    if (lines.first() != "i,j") return {};
    for (qsizetype l = 1; l < lines.size(); ++l) {
      if (lines[l].isEmpty()) continue;
      const QList<QByteArray> ids = lines[l].split(',');
      pairs.push_back({std::uint32_t(ids[0].toULong()), std::uint32_t(ids[1].toULong())});
    }
    return pairs;
  }
  qsizetype offset = 0;
  std::uint64_t count = 0;
  if (path.endsWith(".bin")) {
    if (!bytes.startsWith("SJPAIRS1")) return {};
    std::memcpy(&count, bytes.constData() + 8, 8);
    offset = 16;
  } else {  // .npy, version 1.0: magic, version, 2-byte header length, header
    if (!bytes.startsWith("\x93NUMPY")) return {};
    std::uint16_t header = 0;
    std::memcpy(&header, bytes.constData() + 8, 2);
    const QByteArray dict = bytes.mid(10, header);
    if (!dict.contains("'<u4'")) return {};
    offset = 10 + header;
    count = std::uint64_t(bytes.size() - offset) / 8;
    if (!dict.contains(QByteArray::number(qulonglong(count)) + ", 2)")) return {};
  }
  if (std::uint64_t(bytes.size() - offset) != count * 8) return {};
  pairs.resize(count);
  std::memcpy(pairs.data(), bytes.constData() + offset, count * 8);
  return pairs;
}

std::vector<std::int64_t> read_npy_ints(const QString& path, const char* descr, std::size_t width) {
  const QByteArray bytes = read_bytes(path);
  std::uint16_t header = 0;
  std::memcpy(&header, bytes.constData() + 8, 2);
  if (!bytes.mid(10, header).contains(descr)) return {};
  std::vector<std::int64_t> values;
  for (qsizetype at = 10 + header; at + qsizetype(width) <= bytes.size(); at += qsizetype(width)) {
    std::int64_t value = 0;
    std::memcpy(&value, bytes.constData() + at, width);
    values.push_back(value);
  }
  return values;
}

RunRecord run(RunRequest request) {
  RunControl control;
  return execute_run(test_registry(), request, control);
}
}  // namespace

class TestExportFiles : public QObject {
  Q_OBJECT

 private slots:
  void chartImagesAndData() {
    QTemporaryDir dir;
    SweepChart chart;
    const SweepSpec spec = bruteforce_sweep({0.1, 0.2, 0.3}, 600);
    chart.begin(spec);
    SweepRunner runner(test_registry());
    RunControl control;
    for (const SweepPoint& point : runner.run(spec, control)) chart.addPoint(point);

    const QString png = dir.filePath("chart.png"), svg = dir.filePath("chart.svg");
    save_chart_image(chart, png.toStdString(), {QSize(640, 480), 96});
    save_chart_image(chart, svg.toStdString(), {QSize(640, 480), 96});
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(640, 480));
    // Not a blank page: the chart drew something other than the background.
    QVERIFY(inked_fraction(image) > 0.01);
    QXmlStreamReader xml(read_bytes(svg));
    bool has_svg = false;
    while (!xml.atEnd())
      if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg")) has_svg = true;
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(has_svg);

    // The chart's data: one row per point, named columns with units.
    const QString csv = dir.filePath("chart.csv");
    write_sweep_csv(chart.points(), csv.toStdString());
    const QList<QByteArray> lines = read_bytes(csv).split('\n');
    QCOMPARE(lines.first(), QByteArray("engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,"
                                       "replicated_points,compared_pairs"));
    QCOMPARE(chart.points().size(), std::size_t(3));
    for (std::size_t p = 0; p < chart.points().size(); ++p) {
      const SweepPoint& point = chart.points()[p];
      const QList<QByteArray> fields = lines[qsizetype(p) + 1].split(',');
      QCOMPARE(fields[0], QByteArray("cpu-bruteforce"));
      QCOMPARE(fields[1].toDouble(), point.eps);
      QCOMPARE(fields[3].toDouble(), point.seconds.median);
      QCOMPARE(fields[4].toDouble(), point.seconds.min);
      QCOMPARE(fields[5].toDouble(), point.seconds.max);
      QCOMPARE(fields[7].toULongLong(), point.stats.pairs);
    }
    QVERIFY_THROWS_EXCEPTION(Error, save_chart_image(chart, dir.filePath("chart.gif").toStdString()));
    QVERIFY_THROWS_EXCEPTION(Error, save_chart_image(chart, dir.filePath("no/such/dir/c.png").toStdString()));
  }

  // Pixels and dpi as asked: the PNG's pixels and resolution, the SVG's and PDF's printed size.
  void chartSizeAndDpi() {
    QTemporaryDir dir;
    SweepChart chart;
    const SweepSpec spec = bruteforce_sweep({0.1, 0.2, 0.4}, 100);
    chart.begin(spec);
    for (const double eps : spec.eps_values) {
      SweepPoint point;
      point.engine = "cpu-bruteforce";
      point.eps = eps;
      point.seconds = {eps, eps / 2, eps * 2};
      chart.addPoint(point);
    }
    const ImageSize size{QSize(1800, 1200), 300};  // 6 x 4 inches
    const QString png = dir.filePath("c.png"), svg = dir.filePath("c.svg"), pdf = dir.filePath("c.pdf");
    for (const QString& path : {png, svg, pdf}) save_chart_image(chart, path.toStdString(), size);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1800, 1200));
    QCOMPARE(image.dotsPerMeterX(), qRound(300 / 0.0254));
    QCOMPARE(image.dotsPerMeterY(), qRound(300 / 0.0254));
    QVERIFY2(read_bytes(svg).contains("width=\"152.4mm\" height=\"101.6mm\""), read_bytes(svg).left(400).constData());
    QVERIFY(QRegularExpression(R"(/MediaBox \[0 0 432(\.0*)? 288(\.0*)?\])").match(read_bytes(pdf)).hasMatch());
    // The chart is laid out at its printed size, so at 300 dpi its text is three times as tall in
    // pixels as on the same pixels at 100 dpi.
    const QString coarse = dir.filePath("coarse.png");
    save_chart_image(chart, coarse.toStdString(), {QSize(1800, 1200), 100});
    const int fine_text = first_text_height(image), coarse_text = first_text_height(QImage(coarse));
    QVERIFY2(fine_text > 2 * coarse_text, qPrintable(QString("%1 vs %2 pixels").arg(fine_text).arg(coarse_text)));
  }

  void imageSizeChoices() {
    QCOMPARE(parse_image_pixels("1600x1000"), std::optional<QSize>(QSize(1600, 1000)));
    QCOMPARE(parse_image_pixels(" 800X600 "), std::optional<QSize>(QSize(800, 600)));
    for (const char* bad : {"1600", "1600x", "x1000", "8x8", "1600x1000x2", "-5x100", "50000x100"})
      QVERIFY2(!parse_image_pixels(bad), bad);
    QCOMPARE(parse_dpi("300"), std::optional<int>(300));
    QVERIFY(!parse_dpi("0") && !parse_dpi("ten") && !parse_dpi("100000"));
    ImageSizeDialog dialog(ImageSize{QSize(1000, 500), 200});
    QCOMPARE(dialog.imageSize().pixels, QSize(1000, 500));
    QCOMPARE(dialog.imageSize().dpi, 200);
    dialog.setImageSize({QSize(3000, 2000), 600});
    QCOMPARE(dialog.imageSize().pixels, QSize(3000, 2000));
    QCOMPARE(dialog.imageSize().dpi, 600);
  }

  void barChartData() {
    QTemporaryDir dir;
    PhaseChart chart;
    RunStats a, b;
    a.add_phase("build", 0.25);
    a.add_phase("join", 1.5);
    a.seconds_total = 1.75;
    b.add_phase("join", 3.125);
    b.seconds_total = 3.125;
    chart.setRuns({{"grid, unicomp", a}, {"brute", b}});
    const QString csv = dir.filePath("phases.csv");
    write_phase_csv(chart, csv.toStdString());
    QCOMPARE(read_bytes(csv), QByteArray("run,phase,seconds\n\"grid, unicomp\",build,0.25\n\"grid, unicomp\",join,1.5\n"
                                         "brute,build,0\nbrute,join,3.125\n"));
  }

  void pairListsReadBackToTheEnginesPairs_data() {
    QTest::addColumn<QString>("extension");
    QTest::addColumn<bool>("kept");
    for (const char* ext : {"csv", "npy", "bin"}) {
      QTest::newRow(qPrintable(QString("%1 kept").arg(ext))) << QString(ext) << true;
      QTest::newRow(qPrintable(QString("%1 run again").arg(ext))) << QString(ext) << false;
    }
  }

  void pairListsReadBackToTheEnginesPairs() {
    QFETCH(QString, extension);
    QFETCH(bool, kept);
    QTemporaryDir dir;
    auto request = make_request("cpu-bruteforce", clustered_points(1500, 3), 0.4);
    if (!kept) request.keep_pairs_limit = 0;
    const RunRecord record = run(request);
    QCOMPARE(record.pairs.has_value(), kept);
    const QString path = dir.filePath("pairs." + extension);
    RunControl control;
    export_pairs(test_registry(), record, path.toStdString(), control);
    std::vector<Pair> pairs = read_pairs(path);
    std::sort(pairs.begin(), pairs.end());
    const std::vector<Pair> expected = simjoin::testing::oracle_pairs(*request.a, nullptr, 0.4);
    QVERIFY(!expected.empty());
    QCOMPARE(pairs.size(), expected.size());
    QCOMPARE(record.result.stats.pairs, std::uint64_t(expected.size()));
    QVERIFY(pairs == expected);
  }

  void cancelledPairExportLeavesNoFile() {
    QTemporaryDir dir;
    auto request = make_request("cpu-bruteforce", clustered_points(500, 2), 0.5);
    const RunRecord record = run(request);
    const QString path = dir.filePath("pairs.csv");
    RunControl control;
    control.request_cancel();
    QVERIFY_THROWS_EXCEPTION(Error, export_pairs(test_registry(), record, path.toStdString(), control));
    QVERIFY(!QFile::exists(path));
  }

  // Every export writes a temporary beside its file and renames it once complete: one that is
  // cancelled or fails leaves the older file of that name as it was, and no temporary.
  void failedOrCancelledExportsKeepTheOlderFiles() {
    QTemporaryDir dir;
    const RunRecord record = run(make_request("cpu-bruteforce", clustered_points(500, 2), 0.5));
    const QStringList names = {"pairs.npy", "nbrs.offsets.npy", "nbrs.ids.npy", "chart.png", "chart.svg", "chart.pdf"};
    for (const QString& name : names) {
      QFile file(dir.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("older " + name.toUtf8());
    }
    RunControl cancelled;
    cancelled.request_cancel();
    QVERIFY_THROWS_EXCEPTION(Error,
                             export_pairs(test_registry(), record, dir.filePath("pairs.npy").toStdString(), cancelled));
    QVERIFY_THROWS_EXCEPTION(
        Error, export_neighbors_csr(test_registry(), record, dir.filePath("nbrs").toStdString(), cancelled));
    for (const char* chart : {"chart.png", "chart.svg", "chart.pdf"}) {
      const auto failing_paint = [](QPainter& painter, const QRectF& target) {
        painter.drawRect(target);
        fail(ErrorKind::OutOfMemory, "painting failed part way");
      };
      QVERIFY_THROWS_EXCEPTION(Error,
                               paint_to_file(dir.filePath(chart).toStdString(), {{400, 300}, 100}, "t", failing_paint));
    }
    for (const QString& name : names) QCOMPARE(read_bytes(dir.filePath(name)), "older " + name.toUtf8());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), names.size());
    // And a completed export replaces the older file.
    paint_to_file(dir.filePath("chart.svg").toStdString(), {{400, 300}, 100}, "t",
                  [](QPainter& painter, const QRectF& target) { painter.drawRect(target); });
    QVERIFY(read_bytes(dir.filePath("chart.svg")).contains("<svg"));
  }

  void neighborListsMatchThePairs() {
    QTemporaryDir dir;
    auto request = make_request("cpu-bruteforce", clustered_points(700, 2), 0.3);
    request.keep_pairs_limit = 0;
    const RunRecord record = run(request);
    const QString prefix = dir.filePath("nbrs");
    RunControl control;
    export_neighbors_csr(test_registry(), record, prefix.toStdString(), control);
    const auto offsets = read_npy_ints(prefix + ".offsets.npy", "'<i8'", 8);
    const auto ids = read_npy_ints(prefix + ".ids.npy", "'<u4'", 4);
    QCOMPARE(offsets.size(), request.a->size() + 1);
    std::vector<std::vector<std::int64_t>> expected(request.a->size());
    for (const Pair& pair : simjoin::testing::oracle_pairs(*request.a, nullptr, 0.3)) {
      expected[pair.i].push_back(pair.j);
      expected[pair.j].push_back(pair.i);
    }
    for (std::size_t p = 0; p < expected.size(); ++p) {
      std::sort(expected[p].begin(), expected[p].end());
      const std::vector<std::int64_t> got(ids.begin() + offsets[p], ids.begin() + offsets[p + 1]);
      QVERIFY(got == expected[p]);
    }
  }

  void statisticsAsJson() {
    QTemporaryDir dir;
    const std::string engine = test_registry().find("cpu-kmeans") ? "cpu-kmeans" : "cpu-bruteforce";
    auto request = make_request(engine, clustered_points(900, 2), 0.3);
    request.params.k = 4;
    const RunRecord record = run(request);
    const QString path = dir.filePath("stats.json");
    export_stats_json(record, path.toStdString());
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(read_bytes(path), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    const RunStats& stats = record.result.stats;
    QCOMPARE(json["engine"].toString().toStdString(), stats.engine);
    QCOMPARE(json["pairs"].toInteger(), qint64(stats.pairs));
    QCOMPARE(json["eps"].toDouble(), stats.eps);
    QCOMPARE(json["seconds_total"].toDouble(), stats.seconds_total);
    QCOMPARE(json["replicated_points"].toInteger(), qint64(stats.replicated_points));
    for (const PhaseTime& phase : stats.phases)
      QCOMPARE(json["phases"].toObject()[QString::fromStdString(phase.name)].toDouble(), phase.seconds);
    if (record.result.partitions) {
      const QJsonArray sizes = json["partition_sizes"].toArray();
      QCOMPARE(sizes.size(), qsizetype(record.result.partitions->k));
      qint64 total = 0;
      for (const QJsonValue& size : sizes) total += size.toInteger();
      QCOMPARE(total, qint64(request.a->size() + stats.replicated_points));
    }
  }
};

QTEST_MAIN(TestExportFiles)
#include "test_export_files.moc"
