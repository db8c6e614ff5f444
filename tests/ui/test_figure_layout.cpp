// The view figures' layout, measured on the files an author would print: for every view (scatter,
// partitions, replication, grid, a pick in each of the last two, and each lesson) on three data sets
// of different shapes (a 2-D lon/lat map, a 3-D shell, 64-D clusters, fresh each run), at
// 3.5 x 2.6 in, 3.5 x 3 in and 7 x 3.5 in, each figure is written as PDF, SVG and PNG through the
// window's own figure writer and checked:
// - the plot frame, found in the PNG where the layout says it is, has at least kMinPlotShare of the area;
// - every word of the PDF (pdftotext -bbox) lies inside the page, whole (no "..."), and no two words
//   outside the plot overlap (nor any two text boxes of the layout);
// - every key entry the layout reports is in the PDF in full, and every legend entry of the view is
//   in the key, by its label, its brief or its group's summary;
// - the SVG is the same file from two runs, and from a second view of another size (a pick is
//   zoomed from the data alone, whatever the window).
// About 20 s on 2 cores. SIMJOIN_FIGURES_OUT=DIR keeps the figures there.
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>

#include "core/points/pca.hpp"
#include "core/run/run_engine.hpp"
#include "tests/ui/pdf_words.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/lessons/lessons.hpp"
#include "ui/samples.hpp"
#include "ui/views/projection_view.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using namespace simjoin::ui::testing;

namespace {

// Places around 12 "cities" on a lon/lat map, the columns in the order lat, lon.
PointSet map_points(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> lon(-170, 170), lat(-50, 70);
  std::normal_distribution<double> spread(0, 4);
  std::vector<std::array<double, 2>> centres(12);
  for (auto& c : centres) c = {lat(rng), lon(rng)};
  PointSet points(3000, 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& c = centres[i % centres.size()];
    points.point(i)[0] = std::clamp(c[0] + spread(rng), -89.0, 89.0);
    points.point(i)[1] = std::clamp(c[1] + 2 * spread(rng), -179.0, 179.0);
  }
  points.column_names = {"lat", "lon"};
  return points;
}

// A bumpy shell of radius about 1 in 3-D (a scanned surface's shape).
PointSet shell_points(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  PointSet points(3000, 3);
  for (std::size_t i = 0; i < points.size(); ++i) {
    double v[3] = {normal(rng), normal(rng), 0.6 * normal(rng)};
    const double r = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 1e-12;
    const double bump = 1 + 0.15 * std::sin(5 * v[0] / r) * std::cos(3 * v[1] / r);
    for (int j = 0; j < 3; ++j) points.point(i)[j] = v[j] / r * bump;
  }
  return points;
}

// Ten clusters in 64 dimensions with values 0 to 16 (handwritten digits' shape).
PointSet digit_points(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> centre(0, 16);
  std::normal_distribution<double> spread(0, 1.5);
  std::vector<std::vector<double>> centres(10, std::vector<double>(64));
  for (auto& c : centres)
    for (double& x : c) x = centre(rng);
  PointSet points(1800, 64);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = 0; j < 64; ++j) points.point(i)[j] = std::clamp(centres[i % 10][j] + spread(rng), 0.0, 16.0);
  return points;
}

struct Case {
  std::shared_ptr<const PointSet> points;
  ViewMode mode = ViewMode::Scatter;
  std::string engine;  // empty: no run
  double eps = 0;
  int k = 0;
  std::optional<std::uint32_t> pick;
};

// The window's view of the case, at a widget size of `widget`, settled.
std::unique_ptr<ProjectionView> make_view(const Case& c, QSize widget) {
  auto view = std::make_unique<ProjectionView>();
  view->resize(widget);
  view->setEps(c.eps);
  view->setMode(c.mode);
  view->setPoints(c.points, std::make_shared<const Pca>(fit_pca(*c.points)));
  if (!c.engine.empty()) {
    JoinParams params;
    params.eps = c.eps;
    params.k = c.k;
    params.structures = true;
    CountSink sink;
    RunControl control;
    view->setResult(std::make_shared<const RunResult>(
        run_engine(testing::test_registry().get(c.engine), {c.points.get(), nullptr}, params, sink, control)));
  }
  if (c.pick) view->pick(*c.pick);
  view->settle();
  return view;
}

ImageSize printed(double width_in, double height_in, int dpi) {
  return {QSize(qRound(width_in * dpi), qRound(height_in * dpi)), dpi};
}

// Whether the frame's edges are drawn where the layout says: dark along most of each side.
bool frame_drawn(const QImage& image, const QRectF& plot, double scale) {
  const QRect frame = QRectF(plot.topLeft() * scale, plot.bottomRight() * scale).toRect();
  const auto dark = [&](int x, int y) {
    for (int d = -2; d <= 2; ++d) {
      const int px = std::clamp(x + (frame.width() > 0 && (y == frame.top() || y == frame.bottom()) ? 0 : d), 0,
                                image.width() - 1);
      const int py = std::clamp(y + (x == frame.left() || x == frame.right() ? 0 : d), 0, image.height() - 1);
      if (qGray(image.pixel(px, py)) < 110) return true;
    }
    return false;
  };
  int hits = 0, total = 0;
  for (int x = frame.left() + 3; x < frame.right() - 3; x += 3, total += 2)
    hits += dark(x, frame.top()) + dark(x, frame.bottom());
  for (int y = frame.top() + 3; y < frame.bottom() - 3; y += 3, total += 2)
    hits += dark(frame.left(), y) + dark(frame.right(), y);
  return total > 0 && hits >= 0.9 * total;
}

}  // namespace

class TestFigureLayout : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::map<QString, std::shared_ptr<const PointSet>> data_;

  QString path(const QString& name) const {
    const QString kept = qEnvironmentVariable("SIMJOIN_FIGURES_OUT");
    return kept.isEmpty() ? dir_.filePath(name) : QDir(kept).filePath(name);
  }

  // Plot share and text boxes of the layout, and the frame where it says, in the PNG.
  void checkLayout(const ViewFigureLayout& placed, const ImageSize& size, const QString& name) {
    const QSizeF page = size.layout();
    const double share = placed.plot.width() * placed.plot.height() / (page.width() * page.height());
    QVERIFY2(share >= kMinPlotShare,
             qPrintable(QString("%1: the plot has %2 % of the area").arg(name).arg(100 * share)));
    const QRectF sheet(QPointF(0, 0), page);
    for (std::size_t i = 0; i < placed.texts.size(); ++i) {
      QVERIFY2(sheet.contains(placed.texts[i]), qPrintable(name + ": text off the page " + describe(placed.texts[i])));
      QVERIFY2(!placed.texts[i].intersects(placed.plot) || placed.texts[i].width() < 1,
               qPrintable(name + ": text over the plot " + describe(placed.texts[i])));
      for (std::size_t j = 0; j < i; ++j)
        QVERIFY2(!overlap(placed.texts[i], placed.texts[j], 0.5),
                 qPrintable(name + ": texts overlap " + describe(placed.texts[i]) + describe(placed.texts[j])));
    }
    const QImage png(path(name + ".png"));
    QVERIFY2(frame_drawn(png, placed.plot, png.width() / page.width()),
             qPrintable(name + ".png: no frame at the plot"));
  }

  // Every legend entry of the view is in the key: as itself, its brief, or its group's summary.
  void checkKeyComplete(const Layers& layers, const ViewFigureLayout& placed, const QString& name) {
    const auto in_key = [&](const std::string& text) {
      return !text.empty() &&
             std::find(placed.key.begin(), placed.key.end(), QString::fromStdString(text)) != placed.key.end();
    };
    for (const LegendEntry& entry : layers.legend) {
      const bool grouped = entry.group >= 0;
      if (grouped && layers.legend_groups[entry.group].heading.rfind("points per", 0) == 0) continue;  // by region
      const LegendGroup* group = grouped ? &layers.legend_groups[entry.group] : nullptr;
      const bool shown =
          in_key(entry.label) || in_key(entry.brief) || (group && (in_key(group->summary) || in_key(group->least)));
      QVERIFY2(shown, qPrintable(name + ": the key lacks '" + QString::fromStdString(entry.label) + "'"));
    }
    if (!layers.picked_facts.empty())
      QVERIFY2(std::any_of(placed.key.begin(), placed.key.end(),
                           [](const QString& entry) { return entry.startsWith("Picked point"); }),
               qPrintable(name + ": the key lacks the picked point"));
  }

  QByteArray contents(const QString& file) {
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
  }

  void checkCase(const Case& c, const QString& label) {
    const auto view = make_view(c, QSize(900, 600));
    const auto writer = view->figureWriter();
    const Layers& layers = view->layers();
    for (const auto& [tag, size] :
         {std::pair{"3.5x2.6", printed(3.5, 2.6, 300)}, std::pair{"3.5x3", printed(3.5, 3, 300)},
          std::pair{"7x3.5", printed(7, 3.5, 300)}}) {
      const QString name = label + "-" + tag;
      ViewFigureLayout placed = writer(path(name + ".pdf").toStdString(), size);
      writer(path(name + ".svg").toStdString(), size);
      writer(path(name + ".png").toStdString(), {size.pixels / 2, size.dpi / 2});
      checkLayout(placed, size, name);
      const QString pdf_failure =
          pdf_layout_failure(path(name + ".pdf"), size.layout(), placed.plot, placed.legend, placed.key);
      QVERIFY2(pdf_failure.isEmpty(), qPrintable(name + ".pdf: " + pdf_failure));
      checkKeyComplete(layers, placed, name);
      // The same file again, and from a view of another size.
      writer(path(name + "-again.svg").toStdString(), size);
      QVERIFY2(contents(path(name + ".svg")) == contents(path(name + "-again.svg")),
               qPrintable(name + ".svg differs between two runs"));
      if (c.pick && tag == QString("3.5x3")) {
        make_view(c, QSize(300, 700))->figureWriter()(path(name + "-other.svg").toStdString(), size);
        QVERIFY2(contents(path(name + ".svg")) == contents(path(name + "-other.svg")),
                 qPrintable(name + ".svg depends on the window's size"));
      }
    }
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(!QStandardPaths::findExecutable("pdftotext").isEmpty(), "pdftotext (poppler-utils) is needed");
    const std::uint64_t seed = testing::seed();
    data_["map"] = std::make_shared<const PointSet>(map_points(seed));
    data_["shell3d"] = std::make_shared<const PointSet>(shell_points(seed + 1));
    data_["digits64"] = std::make_shared<const PointSet>(digit_points(seed + 2));
  }

  void views_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<int>("view");
    for (const char* data : {"map", "shell3d", "digits64"})
      for (int view = 0; view < 6; ++view)
        QTest::newRow(qPrintable(QString("%1-%2").arg(data).arg(view))) << QString(data) << view;
  }

  // 0 scatter, 1 partitions (k = 8), 2 replication (k = 16), 3 grid, 4 replication pick, 5 grid pick.
  void views() {
    QFETCH(QString, data);
    QFETCH(int, view);
    const double eps = data == "map" ? 3.0 : data == "shell3d" ? 0.1 : 8.0;
    Case c{data_[data]};
    c.eps = eps;
    const ViewMode modes[] = {ViewMode::Scatter, ViewMode::Partitions,  ViewMode::Replication,
                              ViewMode::Grid,    ViewMode::Replication, ViewMode::Grid};
    c.mode = modes[view];
    c.engine = view == 0 ? "" : c.mode == ViewMode::Grid ? "cpu-grid" : "cpu-kmeans";
    c.k = view == 2 ? 16 : 8;
    if (view >= 4) c.pick = 123;
    checkCase(c, QString("%1-%2").arg(data).arg(view));
  }

  void lessonViews_data() {
    QTest::addColumn<QString>("name");
    for (const Lesson& lesson : ui::lessons())
      QTest::newRow(lesson.name.c_str()) << QString::fromStdString(lesson.name);
  }

  void lessonViews() {
    QFETCH(QString, name);
    const Lesson* lesson = find_lesson(name.toStdString());
    QVERIFY(lesson);
    Case c{std::make_shared<const PointSet>(load_sample(QString::fromStdString(lesson->sample))),
           lesson->view,
           lesson->engines.back(),
           lesson->eps,
           lesson->k,
           lesson->pick};
    checkCase(c, "lesson-" + name);
  }
};

QTEST_MAIN(TestFigureLayout)
#include "test_figure_layout.moc"
