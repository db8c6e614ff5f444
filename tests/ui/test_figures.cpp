// Figures as an author prints them: views and charts at one column (3.5 in) and full width (7 in),
// 300 dpi. Each is compared with a small reference image in tests/ui/figures (within a tolerance
// for font rendering), and checked for what a reader needs: every text element of the SVG and the
// PDF complete (no "..."), no widget in the figure, the legend clear of the data, the points as
// vector marks up to the limit and as one raster layer beyond it.
// SIMJOIN_UPDATE_FIGURES=1 rewrites the references (look at them before committing);
// SIMJOIN_FIGURES_OUT=DIR keeps the full-size figures in DIR.
#include <QBuffer>
#include <QFile>
#include <QLegend>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "core/points/pca.hpp"
#include "core/points/pca_axes.hpp"
#include "core/run/run_engine.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/sweep_chart.hpp"
#include "ui/lessons/lessons.hpp"
#include "ui/samples.hpp"
#include "ui/views/plot_widget.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/view_figure.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {

constexpr int kReferenceWidth = 350;  // references are stored at this width

// A view of `points` with a run of `engine` (none: no run), as the window would show it.
struct ViewCase {
  PointSet points;
  Pca pca;
  std::vector<float> projected;
  std::optional<RunResult> result;
  Layers layers;

  ViewCase(PointSet p, ViewMode mode, const std::string& engine, double eps, int k,
           std::optional<std::uint32_t> picked = {})
      : points(std::move(p)), pca(fit_pca(points)) {
    Axes axes{true, 0, 1};
    if (!engine.empty()) {
      JoinParams params;
      params.eps = eps;
      params.k = k;
      CountSink sink;
      RunControl control;
      result = run_engine(testing::test_registry().get(engine), {&points, nullptr}, params, sink, control);
      if (mode == ViewMode::Grid && result->grid) axes = {false, 0, 1};
    }
    projected = project_points(points, &pca, axes);
    ViewInput input;
    input.points = &points;
    input.pca = &pca;
    input.axes = axes;
    input.projected = &projected;
    input.mode = mode;
    input.eps = eps;
    input.picked = picked;
    input.show_run(result ? &*result : nullptr);
    layers = build_layers(input);
  }

  ViewFigure figure() const {
    ViewFigure figure;
    figure.layers = &layers;
    const bool raw = result && result->grid;
    figure.x_title = QString::fromStdString(raw ? column_name(points, 0) : axis_label(pca, 0, points));
    figure.y_title = QString::fromStdString(raw ? column_name(points, 1) : axis_label(pca, 1, points));
    return figure;
  }
};

ImageSize printed(double width_in, double height_in, int dpi = 300) {
  return {QSize(qRound(width_in * dpi), qRound(height_in * dpi)), dpi};
}

QStringList svg_texts(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QString svg = QString::fromUtf8(file.readAll());
  QStringList texts;
  static const QRegularExpression text_element("<text[^>]*>([^<]*)</text>");
  for (auto match = text_element.globalMatch(svg); match.hasNext();) texts << match.next().captured(1);
  return texts;
}

// The PDF's text by pdftotext (poppler-utils); empty where it is missing.
QString pdf_text(const QString& path) {
  const QString tool = QStandardPaths::findExecutable("pdftotext");
  if (tool.isEmpty()) return {};
  QProcess process;
  process.start(tool, {"-layout", path, "-"});
  process.waitForFinished(30000);
  return QString::fromUtf8(process.readAllStandardOutput());
}

bool elided(const QString& text) { return text.contains(QChar(0x2026)) || text.contains("..."); }

// Mean difference (0-255) and share of clearly different pixels, at the references' width.
std::pair<double, double> image_difference(const QImage& a, const QImage& b) {
  const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
  double sum = 0;
  std::size_t far = 0;
  for (int r = 0; r < x.height(); ++r)
    for (int c = 0; c < x.width(); ++c) {
      const QRgb p = x.pixel(c, r), q = y.pixel(c, r);
      const int d =
          std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
      sum += d;
      far += d > 64;
    }
  const double pixels = double(x.width()) * x.height();
  return {sum / pixels, far / pixels};
}

// The PNG at `path` against tests/ui/figures/NAME.png, both scaled to the references' width.
void compare_with_reference(const QString& path, const QString& name) {
  const QImage image = QImage(path).scaledToWidth(kReferenceWidth, Qt::SmoothTransformation);
  QVERIFY(!image.isNull());
  const QString reference_path = QString(SIMJOIN_FIGURES_DIR) + "/" + name + ".png";
  if (qEnvironmentVariableIsSet("SIMJOIN_UPDATE_FIGURES")) {
    QVERIFY(image.save(reference_path));
    return;
  }
  const QImage reference(reference_path);
  QVERIFY2(!reference.isNull(), qPrintable(reference_path + " is missing (SIMJOIN_UPDATE_FIGURES=1 writes it)"));
  QCOMPARE(image.size(), reference.size());
  const auto [mean, share] = image_difference(image, reference);
  const QString failed_copy = QDir::temp().filePath("simjoin-figure-" + name + ".png");
  if (mean >= 4.0 || share >= 0.03) image.save(failed_copy);
  QVERIFY2(mean < 4.0 && share < 0.03, qPrintable(QString("%1 differs from its reference: mean %2, %3 % of pixels; "
                                                          "this run's image: %4")
                                                      .arg(name)
                                                      .arg(mean)
                                                      .arg(100 * share)
                                                      .arg(failed_copy)));
}

// The view's data (points, markers, cells) in figure coordinates lie inside the plot frame.
void check_legend_clear(const ViewFigureLayout& placed) {
  QVERIFY(placed.plot.isValid());
  if (placed.legend.isEmpty()) return;
  QVERIFY2(!placed.legend.intersects(placed.plot),
           qPrintable(QString("legend (%1, %2, %3 x %4) over the plot (%5, %6, %7 x %8)")
                          .arg(placed.legend.x())
                          .arg(placed.legend.y())
                          .arg(placed.legend.width())
                          .arg(placed.legend.height())
                          .arg(placed.plot.x())
                          .arg(placed.plot.y())
                          .arg(placed.plot.width())
                          .arg(placed.plot.height())));
}

void check_texts_complete(const QStringList& texts, const QString& what) {
  QVERIFY2(!texts.isEmpty(), qPrintable(what + " has no text elements"));
  for (const QString& text : texts) QVERIFY2(!elided(text), qPrintable(what + ": elided text '" + text + "'"));
  // Widgets of the window (axis boxes, buttons) are not part of a figure.
  for (const QString& widget_text : {QString("Reset view"), QString("Partition")})
    QVERIFY2(!texts.contains(widget_text), qPrintable(what + " shows the widget text " + widget_text));
}

}  // namespace

class TestFigures : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  // SIMJOIN_FIGURES_OUT keeps the full-size figures there, to look at.
  QString path(const QString& name) const {
    const QString kept = qEnvironmentVariable("SIMJOIN_FIGURES_OUT");
    return kept.isEmpty() ? dir_.filePath(name) : QDir(kept).filePath(name);
  }

  // Writes the view figure as PNG, SVG and PDF at `size` and checks each; compares the PNG.
  void checkView(const ViewCase& view, const QString& name, const ImageSize& size) {
    for (const char* ext : {".png", ".svg", ".pdf"}) {
      const ViewFigureLayout placed = save_view_figure(view.figure(), path(name + ext).toStdString(), size);
      check_legend_clear(placed);
      // The plot shows all the data: every point, marker, line and cell.
      QVERIFY(placed.region.contains(layers_bounds(view.layers)));
    }
    check_texts_complete(svg_texts(path(name + ".svg")), name + ".svg");
    QVERIFY(svg_texts(path(name + ".svg")).contains(view.figure().x_title));
    const QString pdf = pdf_text(path(name + ".pdf"));
    if (!pdf.isEmpty()) {
      QVERIFY2(!elided(pdf), qPrintable(name + ".pdf: elided text"));
      QVERIFY(pdf.contains(view.figure().x_title));
    }
    compare_with_reference(path(name + ".png"), name);
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void partitionsOnTimeZones() {
    const ViewCase view(load_sample("timezones"), ViewMode::Partitions, "cpu-kmeans", 5, 8);
    checkView(view, "timezones-partitions-7in", printed(7, 4.2));
    checkView(view, "timezones-partitions-3.5in", printed(3.5, 3.2));
  }

  void replicationLesson() {
    const Lesson* lesson = find_lesson("replication-2d");
    QVERIFY(lesson);
    const ViewCase view(load_sample(QString::fromStdString(lesson->sample)), lesson->view, lesson->engines.back(),
                        lesson->eps, lesson->k, lesson->pick);
    checkView(view, "lesson-replication-2d", printed(7, 4.2));
  }

  void gridPick() {
    const ViewCase view(load_sample("timezones"), ViewMode::Grid, "cpu-grid", 5, 0, 40);
    QVERIFY(!view.layers.picked_facts.empty());
    checkView(view, "timezones-grid-pick", printed(7, 4.2));
  }

  // Without OpenGL (this platform) the view is painted by PlotWidget; a pick centres it on the point
  // and zooms in until the point's eps-circle spans many pixels, as the VTK view does, and the view's
  // figure shows that region.
  void pickZoomsWithoutOpenGL() {
    QVERIFY(!VtkViewWidget::openGLUsable());
    const PointSet sample = load_sample("timezones");
    auto points = std::make_shared<const PointSet>(sample);
    auto pca = std::make_shared<const Pca>(fit_pca(*points));
    ProjectionView view;
    view.resize(800, 600);
    view.show();
    const double eps = 2;
    view.setEps(eps);
    view.setPoints(points, pca);
    view.settle();
    QVERIFY(view.plotWidget());
    QVERIFY(view.figure().region.isEmpty());  // all the data
    QVERIFY(view.pick(94));
    view.settle();
    const std::vector<float> xy = project_points(*points, pca.get(), view.axes());
    const QRectF shown = view.plotWidget()->shownRegion();
    QVERIFY2(std::abs(shown.center().x() - xy[2 * 94]) < 1e-3 && std::abs(shown.center().y() - xy[2 * 94 + 1]) < 1e-3,
             qPrintable(QString("centre %1, %2").arg(shown.center().x()).arg(shown.center().y())));
    const double eps_pixels = eps / (shown.height() / view.plotWidget()->height());
    QVERIFY2(eps_pixels > 40, qPrintable(QString("eps spans %1 pixels").arg(eps_pixels)));
    QCOMPARE(view.figure().region, view.plotWidget()->region());
    view.resetCamera();
    QVERIFY(view.figure().region.isEmpty());
  }

  // Points beyond the limit are one raster layer; below it, vector marks.
  void pointsRasterisedBeyondTheLimit() {
    PointSet points(30000, 2);
    for (std::size_t i = 0; i < points.size(); ++i)
      points.point(i)[0] = std::sin(0.37 * double(i)), points.point(i)[1] = std::cos(0.011 * double(i));
    const ViewCase view(std::move(points), ViewMode::Scatter, "", 0.1, 0);
    const auto images = [&](const QString& name) {
      QFile file(path(name));
      file.open(QIODevice::ReadOnly);
      return QString::fromUtf8(file.readAll()).count("<image");
    };
    ViewFigure figure = view.figure();
    save_view_figure(figure, path("many.svg").toStdString(), printed(3.5, 3));
    QCOMPARE(images("many.svg"), 1);
    QVERIFY(QFileInfo(path("many.svg")).size() < 3'000'000);
    figure.max_vector_points = 50000;
    save_view_figure(figure, path("vector.svg").toStdString(), printed(3.5, 3));
    QCOMPARE(images("vector.svg"), 0);
  }

  // The window draws an evenly spaced subset of a large set; its figure draws every point, so that
  // an outlier the subset leaves out is in the figure.
  void figureDrawsEveryPoint() {
    const std::size_t n = 150'000, outlier = n - 1;  // the window draws the even rows
    PointSet grid(n, 2);
    for (std::size_t i = 0; i < n; ++i) grid.point(i)[0] = double(i % 400), grid.point(i)[1] = double(i / 400);
    grid.point(outlier)[0] = 5000;
    auto points = std::make_shared<const PointSet>(std::move(grid));
    ProjectionView view;
    view.resize(800, 600);
    view.setPoints(points, std::make_shared<const Pca>(fit_pca(*points)));
    view.settle();
    const auto has_outlier = [&](const Layers& layers) {
      return std::find(layers.ids.begin(), layers.ids.end(), std::uint32_t(outlier)) != layers.ids.end();
    };
    QVERIFY(view.layers().ids.size() <= 100'000);
    QVERIFY(!has_outlier(view.layers()));
    const Layers all = view.allPointsLayers()();
    QCOMPARE(all.ids.size(), n);
    QVERIFY(has_outlier(all));
    QVERIFY(layers_bounds(all).width() > 2 * layers_bounds(view.layers()).width());
  }

  void sweepChartAtColumnWidth() {
    SweepSpec spec;
    spec.engines = {"cpu-grid", "cpu-kmeans", "cpu-rtree"};
    spec.eps_values = {1, 2, 4, 8, 16};
    spec.k_values = {4, 8};
    spec.a = std::make_shared<const PointSet>(load_sample("timezones"));
    spec.timing = {1, 3};
    spec.machine = "AMD EPYC 7B13, 2 threads; GPU: none (this build has no CUDA support)";
    SweepChart chart;
    chart.begin(spec);
    for (double eps : spec.eps_values)
      for (const auto& [engine, uses_k, base] :
           {std::tuple{"cpu-grid", false, 4e-5}, {"cpu-kmeans", true, 3e-3}, {"cpu-rtree", false, 8e-2}})
        for (int k : uses_k ? spec.k_values : std::vector<int>{4}) {
          SweepPoint point;
          point.engine = engine, point.eps = eps, point.k = k, point.uses_k = uses_k, point.timed_runs = 3;
          const double s = base * eps * (uses_k ? k / 4.0 : 1);
          point.seconds = {s, s * 0.8, s * 1.3};
          point.stats.pairs = std::uint64_t(100 * eps);
          chart.addPoint(point);
        }
    for (const auto& [name, size] :
         {std::pair{QString("sweep-3.5in"), printed(3.5, 2.8)}, std::pair{QString("sweep-7in"), printed(7, 3.5)},
          std::pair{QString("sweep-3.5in-150dpi"), printed(3.5, 2.6, 150)},
          std::pair{QString("sweep-3.5in-600dpi"), printed(3.5, 2.8, 600)}}) {
      for (const char* ext : {".png", ".svg", ".pdf"}) save_chart_image(chart, path(name + ext).toStdString(), size);
      const QStringList texts = svg_texts(path(name + ".svg"));
      check_texts_complete(texts, name + ".svg");
      const QString all = texts.join(" ");
      for (const QString& word : {"cpu-kmeans k=8", "(ignores k)"})
        QVERIFY2(all.contains(word), qPrintable(name + ".svg lacks '" + word + "': " + all));
      // The caption is drawn where the plot keeps its share (at 7 in); the document's title keeps it always.
      QFile svg_file(path(name + ".svg"));
      QVERIFY(svg_file.open(QIODevice::ReadOnly));
      const QString svg = QString::fromUtf8(svg_file.readAll());
      for (const QString& word : {"EPYC", "warm-up", "log"}) {
        QVERIFY2(svg.contains("<title>") && svg.section("<title>", 1).section("</title>", 0, 0).contains(word),
                 qPrintable(name + ".svg's title lacks '" + word + "'"));
        if (name == "sweep-7in") QVERIFY2(all.contains(word), qPrintable(name + ".svg lacks '" + word + "': " + all));
      }
      const QString pdf = pdf_text(path(name + ".pdf"));
      if (!pdf.isEmpty()) QVERIFY2(!elided(pdf), qPrintable(name + ".pdf: elided text\n" + pdf));
    }
    compare_with_reference(path("sweep-3.5in.png"), "sweep-3.5in");
    compare_with_reference(path("sweep-7in.png"), "sweep-7in");
  }
};

QTEST_MAIN(TestFigures)
#include "test_figures.moc"
