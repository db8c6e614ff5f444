// Sweeps run in the background and the chart grows with them; each point is timed as `simjoin bench`
// times and drawn as the median with a min-max bar; the x axis follows the sweep's spacing, the y
// axis turns logarithmic where the data spans decades; engines that ignore k run once in a k sweep
// and are drawn as such; titles name the data and the machine; the phase chart stacks each run's
// phases; the headless sweep command writes its CSV and chart.
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include "app/sweep/sweep_command.hpp"
#include "core/base/error.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/run/run_execution.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::test_registry;

namespace {
// Engines present in this build among the ones the thesis compares.
std::vector<std::string> sweep_engines() {
  std::vector<std::string> engines = {"cpu-bruteforce"};
  for (const char* name : {"cpu-grid", "cpu-kmeans"})
    if (test_registry().find(name)) engines.push_back(name);
  return engines;
}

SweepSpec eps_sweep() {
  SweepSpec spec;
  spec.engines = sweep_engines();
  spec.eps_values = {0.8, 0.05, 0.2, 0.4};  // unsorted on purpose
  spec.a = clustered_points(1500, 3);
  spec.base.k = 5;
  spec.base.seed = simjoin::ui::testing::seed();
  return spec;
}

std::uint64_t count(const std::string& engine, const SweepSpec& spec, double eps, int k) {
  RunRequest request;
  request.engine = engine;
  request.a = spec.a;
  request.params = spec.base;
  request.params.eps = eps;
  request.params.k = k;
  RunControl control;
  return execute_run(test_registry(), request, control).result.stats.pairs;
}

QString read_all(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
}  // namespace

class TestChartsSweep : public QObject {
  Q_OBJECT

 private slots:
  void sweepDrawsAPointPerRunAsResultsArrive() {
    const SweepSpec spec = eps_sweep();
    SweepRunner runner(test_registry());
    SweepChart chart;
    chart.begin(spec);
    chart.setMetric(SweepMetric::Pairs);
    std::vector<int> drawn;  // points on the chart after each arrival
    connect(&runner, &SweepRunner::pointReady, &chart, [&](const SweepPoint& point, int, int) {
      chart.addPoint(point);
      drawn.push_back(chart.plottedPointCount());
    });
    QSignalSpy finished(&runner, &SweepRunner::finished);
    QSignalSpy ready(&runner, &SweepRunner::pointReady);
    runner.start(spec);
    QVERIFY(runner.running());
    QVERIFY(finished.wait(60000));
    const int expected = int(spec.engines.size() * spec.eps_values.size());
    QCOMPARE(finished.at(0).at(0).toInt(), expected);
    QCOMPARE(ready.count(), expected);
    QCOMPARE(ready.at(0).at(2).toInt(), expected);
    QCOMPARE(chart.plottedPointCount(), expected);
    for (std::size_t i = 0; i < drawn.size(); ++i) QCOMPARE(drawn[i], int(i) + 1);
    QCOMPARE(int(chart.series().size()), int(spec.engines.size()));

    // Each series is one engine's pair counts, in eps order, equal to a run of its own.
    for (QAbstractSeries* abstract : chart.series()) {
      auto* series = qobject_cast<QLineSeries*>(abstract);
      QVERIFY(series);
      const QList<QPointF> points = series->points();
      QCOMPARE(points.size(), qsizetype(spec.eps_values.size()));
      for (qsizetype p = 1; p < points.size(); ++p) QVERIFY(points[p - 1].x() < points[p].x());
      for (const QPointF& point : points)
        QCOMPARE(point.y(), double(count(series->name().toStdString(), spec, point.x(), spec.base.k)));
    }
  }

  void kSweepPlotsAgainstKAndPartitionSizes() {
    if (!test_registry().find("cpu-kmeans")) QSKIP("cpu-kmeans is not in this build");
    SweepSpec spec;
    spec.engines = {"cpu-kmeans"};
    spec.eps_values = {0.3};
    spec.k_values = {2, 4, 8};
    spec.a = clustered_points(1200, 2, 1);
    SweepRunner runner(test_registry());
    RunControl control;
    const std::vector<SweepPoint> points = runner.run(spec, control);
    QCOMPARE(points.size(), std::size_t(3));
    SweepChart chart;
    chart.begin(spec);
    QCOMPARE(chart.xAxis(), SweepAxis::K);
    chart.setMetric(SweepMetric::LargestPartition);
    for (const SweepPoint& point : points) {
      QCOMPARE(int(point.partition_sizes.size()), point.k);
      // Partitions hold every point once plus the copies.
      std::uint64_t total = 0;
      for (std::uint64_t size : point.partition_sizes) total += size;
      QCOMPARE(total, spec.a->size() + point.stats.replicated_points);
      chart.addPoint(point);
    }
    QCOMPARE(chart.plottedPointCount(), 3);
    const auto* series = qobject_cast<QLineSeries*>(chart.series().first());
    for (qsizetype p = 0; p < 3; ++p) {
      QCOMPARE(series->at(p).x(), double(spec.k_values[std::size_t(p)]));
      QCOMPARE(series->at(p).y(), *metric_value(points[std::size_t(p)], SweepMetric::LargestPartition));
    }
  }

  void axesTurnLogarithmicOverDecades() {
    SweepChart chart;
    SweepSpec spec = eps_sweep();
    spec.engines = {"cpu-bruteforce"};
    spec.eps_values = {0.1, 0.2, 0.3, 0.4};  // linear spacing
    chart.begin(spec);
    chart.setMetric(SweepMetric::Pairs);
    const auto point = [](double eps, std::uint64_t pairs) {
      SweepPoint p;
      p.engine = "cpu-bruteforce";
      p.eps = eps;
      p.stats.pairs = pairs;
      return p;
    };
    chart.addPoint(point(0.1, 10));
    chart.addPoint(point(0.2, 50));
    QCOMPARE(chart.axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeValue);
    chart.addPoint(point(0.4, 100000));
    QCOMPARE(chart.axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeLogValue);
    QCOMPARE(chart.axes(Qt::Horizontal).first()->type(), QAbstractAxis::AxisTypeValue);
    // Series added after the switch are attached to the new axes.
    QCOMPARE(chart.series().first()->attachedAxes().size(), qsizetype(2));
  }

  void legendClickTogglesSeries() {
    SweepChart chart;
    SweepSpec spec = eps_sweep();
    chart.begin(spec);
    SweepPoint p;
    p.engine = "cpu-bruteforce";
    p.eps = 0.1;
    chart.addPoint(p);
    QAbstractSeries* series = chart.series().first();
    QLegendMarker* marker = chart.legend()->markers(series).first();
    emit marker->clicked();
    QTest::qWait(10);
    QVERIFY(!series->isVisible());
    // The entry stays in the legend (the legend settles its markers' visibility in the event loop).
    QVERIFY(chart.legend()->markers(series).first()->isVisible());
    emit marker->clicked();
    QTest::qWait(10);
    QVERIFY(series->isVisible());
  }

  void eachPointIsTimedByTheBenchRule() {
    SweepSpec spec;
    spec.engines = {"cpu-bruteforce"};
    spec.eps_values = {0.2, 0.4};
    spec.a = clustered_points(800, 3, 2);
    spec.timing = {1, 5};
    SweepRunner runner(test_registry());
    RunControl control;
    const std::vector<SweepPoint> points = runner.run(spec, control);
    QCOMPARE(points.size(), std::size_t(2));
    for (const SweepPoint& point : points) {
      QCOMPARE(point.timed_runs, 5);
      QVERIFY(point.seconds.min > 0);
      QVERIFY(point.seconds.min <= point.seconds.median && point.seconds.median <= point.seconds.max);
      // The statistics shown are those of a timed run.
      QVERIFY(point.seconds.min <= point.stats.seconds_total && point.stats.seconds_total <= point.seconds.max);
      QCOMPARE(*metric_value(point, SweepMetric::Seconds), point.seconds.median);
    }
  }

  void timesAreMediansWithMinMaxBars() {
    SweepSpec spec = eps_sweep();
    spec.engines = {"cpu-bruteforce"};
    SweepChart chart;
    chart.begin(spec);
    SweepPoint p;
    p.engine = "cpu-bruteforce";
    p.eps = 0.2;
    p.seconds = {2.0, 1.0, 4.0};
    p.timed_runs = 3;
    chart.addPoint(p);
    auto* series = qobject_cast<QLineSeries*>(chart.series().first());
    QCOMPARE(series->at(0), QPointF(0.2, 2.0));
    QCOMPARE(chart.rangeBars().size(), std::size_t(1));
    const QLineSeries* bar = chart.rangeBars().at(series).at(0);
    QCOMPARE(bar->points(), (QList<QPointF>{{0.2, 1.0}, {0.2, 4.0}}));
    QCOMPARE(bar->color(), series->color());
    // The y axis holds the whole bar.
    const auto* y = chart.axes(Qt::Vertical).first();
    QVERIFY(y->property("min").toDouble() <= 1.0 && y->property("max").toDouble() >= 4.0);
    // Bars have no legend entry of their own and hide with their series.
    QVERIFY(!chart.legend()->markers(const_cast<QLineSeries*>(bar)).first()->isVisible());
    emit chart.legend()->markers(series).first()->clicked();
    QTest::qWait(10);
    QVERIFY(!bar->isVisible());
    QVERIFY(!chart.legend()->markers(const_cast<QLineSeries*>(bar)).first()->isVisible());
    // Other metrics have no bars.
    chart.setMetric(SweepMetric::Pairs);
    QVERIFY(chart.rangeBars().empty());
  }

  void xAxisFollowsTheSweepsSpacing_data() {
    QTest::addColumn<std::vector<double>>("eps");
    QTest::addColumn<std::vector<int>>("k");
    QTest::addColumn<bool>("logarithmic");
    // Log spacing over less than two decades, linear spacing over two.
    QTest::newRow("log eps") << std::vector<double>{0.1, 0.15, 0.225, 0.3375} << std::vector<int>{} << true;
    QTest::newRow("linear eps") << std::vector<double>{0.01, 0.2575, 0.505, 0.7525, 1.0} << std::vector<int>{} << false;
    QTest::newRow("doubling k") << std::vector<double>{0.3} << std::vector<int>{2, 4, 8, 16} << true;
    QTest::newRow("even k") << std::vector<double>{0.3} << std::vector<int>{2, 4, 6, 8} << false;
  }

  void xAxisFollowsTheSweepsSpacing() {
    QFETCH(std::vector<double>, eps);
    QFETCH(std::vector<int>, k);
    QFETCH(bool, logarithmic);
    SweepSpec spec = eps_sweep();
    spec.engines = {"cpu-bruteforce"};
    spec.eps_values = eps;
    spec.k_values = k;
    SweepChart chart;
    chart.begin(spec);
    chart.setMetric(SweepMetric::Pairs);
    SweepPoint p;
    p.engine = "cpu-bruteforce";
    p.eps = eps.front();
    p.k = k.empty() ? 0 : k.front();
    p.stats.pairs = 10;
    chart.addPoint(p);
    QCOMPARE(chart.axes(Qt::Horizontal).first()->type(),
             logarithmic ? QAbstractAxis::AxisTypeLogValue : QAbstractAxis::AxisTypeValue);
  }

  void kSweepRunsEnginesThatIgnoreKOnce() {
    if (!test_registry().find("cpu-kmeans")) QSKIP("cpu-kmeans is not in this build");
    SweepSpec spec;
    spec.engines = {"cpu-bruteforce", "cpu-kmeans"};
    spec.eps_values = {0.3};
    spec.k_values = {2, 4, 8};
    spec.a = clustered_points(900, 2, 6);
    spec.timing = {0, 1};
    SweepRunner runner(test_registry());
    RunControl control;
    std::vector<std::size_t> totals;
    const std::vector<SweepPoint> points =
        runner.run(spec, control, [&](const SweepPoint&, std::size_t total) { totals.push_back(total); });
    QCOMPARE(points.size(), std::size_t(4));
    QCOMPARE(totals.back(), std::size_t(4));
    QCOMPARE(std::count_if(points.begin(), points.end(), [](const SweepPoint& p) { return !p.uses_k; }), 1);
    QCOMPARE(points.front().engine, std::string("cpu-bruteforce"));
    QVERIFY(!points.front().uses_k);

    SweepChart chart;
    chart.begin(spec);
    chart.setMetric(SweepMetric::Pairs);
    for (const SweepPoint& point : points) chart.addPoint(point);
    QCOMPARE(chart.plottedPointCount(), 4);
    QLineSeries* level = nullptr;
    for (QAbstractSeries* series : chart.series())
      if (series->name() == "cpu-bruteforce (ignores k)") level = qobject_cast<QLineSeries*>(series);
    QVERIFY(level);
    // One run, drawn level across the k range rather than as points that seem to vary.
    const double pairs = double(points.front().stats.pairs);
    QCOMPARE(level->points(), (QList<QPointF>{{2.0, pairs}, {8.0, pairs}}));
    QCOMPARE(level->pen().style(), Qt::DashLine);
  }

  void titleNamesDataParametersEnginesAndMachine() {
    SweepSpec spec = eps_sweep();
    auto points = std::make_shared<PointSet>(*spec.a);
    points->source = "/data/places.csv";
    spec.a = points;
    spec.machine = "Test CPU, 4 threads; GPU: none (test)";
    SweepChart chart;
    chart.begin(spec);
    const QString title = chart.title();
    for (const QString& part : {QString("places.csv, n = 1500, d = 3"), QString("0.05 to 0.8 (4 values, log spacing)"),
                                QString("k = 5"), QString("cpu-bruteforce"),
                                QString("median of 3 runs after 1 warm-up"), QString("Test CPU, 4 threads; no GPU")})
      QVERIFY2(title.contains(part), qPrintable(part + " not in " + title));
    // Why no GPU could be used is a run's note, not a printed figure's subtitle.
    QVERIFY2(!title.contains("(test)"), qPrintable(title));
    // Unless asked for (simjoin sweep --machine-details).
    spec.machine_details = true;
    SweepChart detailed;
    detailed.begin(spec);
    QVERIFY2(detailed.title().contains("Test CPU, 4 threads; GPU: none (test)"), qPrintable(detailed.title()));
  }

  void phaseChartStacksEachRunsPhases() {
    std::vector<PhaseBar> bars;
    for (const char* engine : {"cpu-bruteforce", "cpu-kmeans", "cpu-grid"}) {
      if (!test_registry().find(engine)) continue;
      RunRequest request = simjoin::ui::testing::make_request(engine, clustered_points(2000, 3), 0.3);
      request.params.k = 4;
      RunControl control;
      bars.push_back({QString(engine), execute_run(test_registry(), request, control).result.stats});
    }
    PhaseChart chart;
    chart.setRuns(bars);
    auto* series = qobject_cast<QStackedBarSeries*>(chart.series().first());
    QVERIFY(series);
    QCOMPARE(series->count(), qsizetype(chart.phases().size()));
    for (QBarSet* set : series->barSets())
      for (std::size_t b = 0; b < bars.size(); ++b) QCOMPARE(set->at(qsizetype(b)), chart.seconds(b, set->label()));
    // The stacked segments add up to the run's total time.
    for (std::size_t b = 0; b < bars.size(); ++b) {
      double sum = 0;
      for (QBarSet* set : series->barSets()) sum += set->at(qsizetype(b));
      QVERIFY(sum <= bars[b].stats.seconds_total * (1 + 1e-9));
      QVERIFY(sum >= bars[b].stats.seconds_total * 0.999);
    }
    const QString first = chart.phases().front();
    chart.setPhaseHidden(first, true);
    series = qobject_cast<QStackedBarSeries*>(chart.series().first());
    QCOMPARE(series->barSets().first()->at(0), 0.0);
  }

  void sweepCommandWritesCsvAndChart() {
    QTemporaryDir dir;
    sweep::SweepOptions options;
    options.registry = &test_registry();
    options.engines = sweep_engines();
    options.eps_values = {0.1, 0.3};
    options.k_values = {3, 6};
    options.a = clustered_points(800, 2, 9);
    options.base.seed = simjoin::ui::testing::seed();
    options.csv_path = dir.filePath("sweep.csv").toStdString();
    options.chart_path = dir.filePath("sweep.svg").toStdString();
    options.metric = "compared-ratio";
    options.quiet = true;
    QCOMPARE(sweep::run_sweep_command(options), 0);

    const QStringList lines = read_all(QString::fromStdString(options.csv_path)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QString("engine,eps,k,median_seconds,min_seconds,max_seconds,timed_runs,pairs,"
                                    "replicated_points,compared_pairs"));
    // Engines that ignore k run once per eps, the others at both k values.
    qsizetype rows = 0;
    for (const std::string& engine : options.engines) rows += engine.find("kmeans") != std::string::npos ? 4 : 2;
    QCOMPARE(lines.size() - 1, rows);
    for (qsizetype l = 1; l < lines.size(); ++l) {
      const QStringList fields = lines[l].split(',');
      QCOMPARE(fields.size(), qsizetype(10));
      QCOMPARE(fields[2].isEmpty(), !fields[0].contains("kmeans"));
      QCOMPARE(fields[6].toInt(), options.timing.repeat);
      QVERIFY(fields[4].toDouble() <= fields[3].toDouble() && fields[3].toDouble() <= fields[5].toDouble());
      SweepSpec spec;
      spec.a = options.a;
      spec.base = options.base;
      QCOMPARE(fields[7].toULongLong(), count(fields[0].toStdString(), spec, fields[1].toDouble(), fields[2].toInt()));
    }
    QXmlStreamReader svg(read_all(QString::fromStdString(options.chart_path)));
    int elements = 0;
    while (!svg.atEnd())
      if (svg.readNext() == QXmlStreamReader::StartElement) ++elements;
    QVERIFY2(!svg.hasError(), qPrintable(svg.errorString()));
    QVERIFY(elements > 10);
  }

  void sweepCommandRejectsBadOptionsBeforeRunning() {
    sweep::SweepOptions options;
    options.registry = &test_registry();
    options.engines = {"cpu-bruteforce"};
    options.eps_values = {0.1};
    options.a = clustered_points(100, 2);
    options.chart_path = "chart.jpeg";
    QVERIFY_THROWS_EXCEPTION(Error, sweep::run_sweep_command(options));
    options.chart_path = "chart.svg";
    options.metric = "speed";
    QVERIFY_THROWS_EXCEPTION(Error, sweep::run_sweep_command(options));
    options.metric = "pairs";
    options.engines = {"no-such-engine"};
    QVERIFY_THROWS_EXCEPTION(Error, sweep::run_sweep_command(options));
  }

  void sweepCancels() {
    SweepSpec spec = eps_sweep();
    spec.a = clustered_points(40000, 8, 4);
    spec.engines = {"cpu-bruteforce"};
    SweepRunner runner(test_registry());
    QSignalSpy cancelled(&runner, &SweepRunner::cancelled);
    QSignalSpy finished(&runner, &SweepRunner::finished);
    runner.start(spec);
    QTest::qWait(100);
    runner.cancel();
    QVERIFY(cancelled.wait(5000));
    QVERIFY(finished.isEmpty());
    QVERIFY(!runner.running());
  }
};

QTEST_MAIN(TestChartsSweep)
#include "test_charts_sweep.moc"
