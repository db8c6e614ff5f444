// The sweep and phase charts as printed figures, measured in the files as test_figure_layout measures
// the view figures: an eps sweep (engines by k, min-max bars, a log axis), a k sweep (an engine that
// ignores k as a level line) and a phase chart of several runs, on fresh random timings, at
// 3.5 x 2.6 in and 7 x 3.5 in, each written as PDF, SVG and PNG and checked:
// - the plot area has at least kMinChartPlotShare of the page;
// - every word of the PDF (pdftotext -bbox) lies inside the page, whole (no "..."), and no two words
//   outside the plot overlap;
// - every legend entry of the chart is in the key, and each key entry's words are in the PDF's key box;
// - the SVG is the same file from two runs;
// - the chart the user sees is the same, pixel for pixel, before and after the export.
// About 5 s on 2 cores. SIMJOIN_FIGURES_OUT=DIR keeps the figures there.
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <random>

#include "tests/ui/pdf_words.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/chart_figure.hpp"
#include "ui/charts/phase_chart.hpp"
#include "ui/charts/sweep_chart.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using namespace simjoin::ui::testing;

namespace {

ImageSize printed(double width_in, double height_in, int dpi) {
  return {QSize(qRound(width_in * dpi), qRound(height_in * dpi)), dpi};
}

QByteArray contents(const QString& file) {
  QFile f(file);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The chart as the window shows it.
QImage on_screen(QChart& chart) {
  QChartView view(&chart);
  view.resize(800, 500);
  QApplication::processEvents();
  const QImage image = view.grab().toImage();
  view.setChart(new QChart);  // the view deletes the chart it shows; the test's stays
  return image;
}

// The legend entries a reader needs: visible series with an entry.
QStringList legend_entries(const QChart& chart) {
  QStringList entries;
  for (QLegendMarker* marker : chart.legend()->markers())
    if (marker->series() && marker->series()->isVisible() && !marker->series()->property(kNoLegendEntry).toBool())
      entries << marker->label();
  return entries;
}

}  // namespace

class TestChartLayout : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::mt19937_64 rng_{testing::seed()};

  QString path(const QString& name) const {
    const QString kept = qEnvironmentVariable("SIMJOIN_FIGURES_OUT");
    return kept.isEmpty() ? dir_.filePath(name) : QDir(kept).filePath(name);
  }

  // A sweep of three engines over five eps (x = eps) or four k (x = k), on random timings.
  void fill_sweep(SweepChart& chart, bool by_k) {
    SweepSpec spec;
    spec.engines = {"cpu-grid", "cpu-kmeans", "cpu-rtree"};
    spec.eps_values = by_k ? std::vector<double>{0.5} : std::vector<double>{1, 2, 4, 8, 16};
    spec.k_values = by_k ? std::vector<int>{4, 8, 16, 32} : std::vector<int>{4, 8};
    spec.a = testing::clustered_points(2000, 3, testing::seed());
    spec.timing = {3, 1};
    spec.machine = "AMD EPYC 7B13, 2 threads; GPU: none (this build has no CUDA support)";
    chart.begin(spec);
    std::uniform_real_distribution<double> scale(0.5, 2.0);
    for (double eps : spec.eps_values)
      for (const auto& [engine, uses_k, base] :
           {std::tuple{"cpu-grid", false, 4e-5}, {"cpu-kmeans", true, 3e-3}, {"cpu-rtree", false, 8e-2}})
        for (int k : uses_k ? spec.k_values : std::vector<int>{spec.k_values.front()}) {
          SweepPoint point;
          point.engine = engine, point.eps = eps, point.k = k, point.uses_k = uses_k, point.timed_runs = 3;
          const double s = base * eps * (uses_k ? k / 4.0 : 1) * scale(rng_);
          point.seconds = {s, s * 0.8, s * 1.3};
          point.stats.pairs = std::uint64_t(100 * eps);
          chart.addPoint(point);
        }
  }

  void fill_phases(PhaseChart& chart) {
    std::uniform_real_distribution<double> seconds(0.01, 2.0);
    std::vector<PhaseBar> bars;
    for (const char* engine : {"cpu-grid", "cpu-kmeans", "cpu-rtree", "cpu-brute"}) {
      RunStats stats;
      stats.engine = engine;
      for (const char* phase : {"load", "partition", "replicate", "join", "write pairs"})
        stats.phases.push_back({phase, seconds(rng_)});
      for (const PhaseTime& phase : stats.phases) stats.seconds_total += phase.seconds;
      stats.seconds_total += 0.3;  // "other"
      bars.push_back({QString("#%1 %2").arg(bars.size() + 1).arg(engine), stats});
    }
    chart.setRuns(std::move(bars));
  }

  void checkChart(QChart& chart, const QString& label) {
    const QImage before = on_screen(chart);
    for (const auto& [tag, size] :
         {std::pair{"3.5x2.6", printed(3.5, 2.6, 300)}, std::pair{"7x3.5", printed(7, 3.5, 300)}}) {
      const QString name = label + "-" + tag;
      const ChartFigureLayout placed = save_chart_image(chart, path(name + ".pdf").toStdString(), size);
      save_chart_image(chart, path(name + ".svg").toStdString(), size);
      save_chart_image(chart, path(name + ".png").toStdString(), size);
      const QSizeF page = size.layout();
      const double share = placed.plot.width() * placed.plot.height() / (page.width() * page.height());
      QVERIFY2(share >= kMinChartPlotShare,
               qPrintable(QString("%1: the plot has %2 % of the page").arg(name).arg(100 * share)));
      const QString pdf_failure =
          pdf_layout_failure(path(name + ".pdf"), size.layout(), placed.plot, placed.legend, placed.key);
      QVERIFY2(pdf_failure.isEmpty(), qPrintable(name + ".pdf: " + pdf_failure));
      const QStringList entries = legend_entries(chart);
      for (const QString& entry : entries)
        QVERIFY2(std::find(placed.key.begin(), placed.key.end(), entry) != placed.key.end(),
                 qPrintable(name + ": the key lacks '" + entry + "'"));
      save_chart_image(chart, path(name + "-again.svg").toStdString(), size);
      QVERIFY2(contents(path(name + ".svg")) == contents(path(name + "-again.svg")),
               qPrintable(name + ".svg differs between two runs"));
    }
    QVERIFY2(on_screen(chart) == before, qPrintable(label + ": the export changed the chart on screen"));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(!QStandardPaths::findExecutable("pdftotext").isEmpty(), "pdftotext (poppler-utils) is needed");
  }

  void sweepByEps() {
    SweepChart chart;
    fill_sweep(chart, false);
    checkChart(chart, "sweep-eps");
  }

  void sweepByK() {
    SweepChart chart;
    fill_sweep(chart, true);
    // Each engine its own colour, however many min-max bars came before it.
    QSet<QRgb> colours;
    for (QAbstractSeries* series : chart.series())
      if (!series->property(kNoLegendEntry).toBool()) colours.insert(qobject_cast<QLineSeries*>(series)->color().rgb());
    QCOMPARE(colours.size(), 3);
    checkChart(chart, "sweep-k");
  }

  void phases() {
    PhaseChart chart;
    fill_phases(chart);
    checkChart(chart, "phases");
  }
};

QTEST_MAIN(TestChartLayout)
#include "test_chart_layout.moc"
