// Every export writes a file that reads back to the numbers it was made from: chart images decode,
// chart data and pair lists hold the engine's values, neighbour lists and statistics match the run.
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cstring>

#include "core/error.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/ui/test_run_support.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/export/chart_export.hpp"
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
    SweepSpec spec;
    spec.engines = {"cpu-bruteforce"};
    spec.eps_values = {0.1, 0.2, 0.3};
    spec.a = clustered_points(600, 2);
    chart.begin(spec);
    chart.setMetric(SweepMetric::Pairs);
    SweepRunner runner(test_registry());
    RunControl control;
    for (const SweepPoint& point : runner.run(spec, control)) chart.addPoint(point);

    const QString png = dir.filePath("chart.png"), svg = dir.filePath("chart.svg");
    save_chart_image(chart, png.toStdString(), QSize(640, 480));
    save_chart_image(chart, svg.toStdString(), QSize(640, 480));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(640, 480));
    // Not a blank page: the chart drew something other than the background.
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 4)
      for (int x = 0; x < image.width(); x += 4) coloured += image.pixel(x, y) != image.pixel(0, 0);
    QVERIFY(coloured > 100);
    QXmlStreamReader xml(read_bytes(svg));
    bool has_svg = false;
    while (!xml.atEnd())
      if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg")) has_svg = true;
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(has_svg);

    const QString csv = dir.filePath("chart.csv");
    write_chart_csv(chart, csv.toStdString());
    const QList<QByteArray> lines = read_bytes(csv).split('\n');
    QCOMPARE(lines.first(), QByteArray("series,x,y"));
    const auto* series = qobject_cast<QLineSeries*>(chart.series().first());
    QCOMPARE(series->count(), qsizetype(3));
    for (qsizetype p = 0; p < series->count(); ++p) {
      const QList<QByteArray> fields = lines[p + 1].split(',');
      QCOMPARE(fields[0], QByteArray("cpu-bruteforce"));
      QCOMPARE(fields[1].toDouble(), series->at(p).x());
      QCOMPARE(fields[2].toDouble(), series->at(p).y());
    }
    QVERIFY_THROWS_EXCEPTION(Error, save_chart_image(chart, dir.filePath("chart.gif").toStdString()));
    QVERIFY_THROWS_EXCEPTION(Error, save_chart_png(chart, dir.filePath("no/such/dir/c.png").toStdString()));
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
    write_chart_csv(chart, csv.toStdString());
    QCOMPARE(read_bytes(csv), QByteArray("series,x,y\nbuild,\"grid, unicomp\",0.25\nbuild,brute,0\n"
                                         "join,\"grid, unicomp\",1.5\njoin,brute,3.125\n"));
    const QString png = dir.filePath("phases.png");
    save_chart_png(chart, png.toStdString(), QSize(300, 200));
    QCOMPARE(QImage(png).size(), QSize(300, 200));
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
