// View computations on fresh random inputs: partition colours, replication counts, picking,
// grid search halves, the replication view's cells and the grid view's points.
#include <cmath>
#include <random>

#include <QtTest>

#include "core/base/error.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/run/run_engine.hpp"
#include "ui/views/grid_cells.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/replication.hpp"
#include "ui/views/view_layers.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
std::uint64_t seed() {
  const std::uint64_t s = std::random_device{}();
  qInfo("seed %llu", static_cast<unsigned long long>(s));
  return s;
}

PointSet random_plane(std::size_t n, std::uint64_t s) {
  std::mt19937_64 rng(s);
  std::uniform_real_distribution<float> coord(0, 1);
  PointSet points(n, 2);
  for (std::size_t i = 0; i < n; ++i) points.point(i)[0] = coord(rng), points.point(i)[1] = coord(rng);
  return points;
}

const Axes kRawPlane{false, 0, 1};

// CIE 1976 colour difference (Delta E*ab) of two sRGB colours.
double lab_distance(Rgb p, Rgb q) {
  const auto lab = [](Rgb c) {
    double xyz[3] = {0, 0, 0};
    const double m[3][3] = {
        {0.4124564, 0.3575761, 0.1804375}, {0.2126729, 0.7151522, 0.0721750}, {0.0193339, 0.1191920, 0.9503041}};
    const double white[3] = {0.95047, 1.0, 1.08883};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const double u = c[j] / 255.0;
        xyz[i] += m[i][j] * (u <= 0.04045 ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4));
      }
      xyz[i] /= white[i];
    }
    const auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : t * 24389 / 3132 + 4.0 / 29; };
    return std::array<double, 3>{116 * f(xyz[1]) - 16, 500 * (f(xyz[0]) - f(xyz[1])), 200 * (f(xyz[1]) - f(xyz[2]))};
  };
  const auto a = lab(p), b = lab(q);
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The view of 2-D `points` on their raw axes; `projected` = project_points(points, nullptr, kRawPlane).
ViewInput plane_view(const PointSet& points, const std::vector<float>& projected, ViewMode mode) {
  ViewInput input;
  input.points = &points;
  input.axes = kRawPlane;
  input.projected = &projected;
  input.mode = mode;
  return input;
}

RunResult run(const std::string& engine, const PointSet& points, double eps, int k) {
  EngineRegistry registry;
  register_cpu_engines(registry);
  CountSink sink;
  RunControl control;
  JoinParams params;
  params.eps = eps;
  params.k = k;
  return run_engine(registry.get(engine), {&points, nullptr}, params, sink, control);
}
}  // namespace

class TestViewModels : public QObject {
  Q_OBJECT

 private slots:
  void partitionColoursFollowMembership() {
    std::mt19937_64 rng(seed());
    const std::size_t n = 500, k = 17;
    PointSet points(n, 2);
    PartitionStructure parts;
    parts.k = k;
    parts.centroids.assign(k * 2, 0.5f);
    std::uniform_real_distribution<float> coord(0, 1);
    for (std::size_t i = 0; i < n; ++i) {
      points.point(i)[0] = coord(rng), points.point(i)[1] = coord(rng);
      parts.membership.push_back(rng() % k);
    }
    const auto projected = project_points(points, nullptr, kRawPlane);
    ViewInput input = plane_view(points, projected, ViewMode::Partitions);
    input.partitions = &parts;
    const Layers layers = build_layers(input);
    QCOMPARE(layers.ids.size(), n);
    for (std::size_t v = 0; v < n; ++v) {
      const Rgb expected = category_color(parts.membership[layers.ids[v]]);
      QCOMPARE(Rgb({layers.rgb[3 * v], layers.rgb[3 * v + 1], layers.rgb[3 * v + 2]}), expected);
    }
    QCOMPARE(layers.marker_xy.size(), k * 2);
    QCOMPARE(layers.legend.size(), k);
  }

  // The partitions' colours stay far apart (CIELAB distance) up to k = 64, and from the background
  // and every highlight; the highlights differ from each other.
  void paletteStaysDistinctTo64() {
    const std::vector<Rgb> highlights = {kDimmed, kCopy, kBand, kPicked, kNeighbour};
    for (std::size_t a = 0; a < 64; ++a) {
      for (std::size_t b = a + 1; b < 64; ++b)
        QVERIFY2(lab_distance(category_color(a), category_color(b)) > 20, qPrintable(QString("%1, %2").arg(a).arg(b)));
      QVERIFY(lab_distance(category_color(a), {255, 255, 255}) > 20);
      for (const Rgb& highlight : highlights) QVERIFY(lab_distance(category_color(a), highlight) > 20);
    }
    for (std::size_t a = 0; a < highlights.size(); ++a)
      for (std::size_t b = a + 1; b < highlights.size(); ++b) QVERIFY(lab_distance(highlights[a], highlights[b]) > 20);
    // The colour-blind palette is Okabe & Ito's, and its name round-trips for --palette.
    QCOMPARE(palette_size(PaletteKind::ColorBlind), std::size_t(7));
    QCOMPARE(category_color(0, PaletteKind::ColorBlind), Rgb({230, 159, 0}));
    QCOMPARE(category_color(6, PaletteKind::ColorBlind), Rgb({204, 121, 167}));
    QCOMPARE(parse_palette("colorblind"), std::optional(PaletteKind::ColorBlind));
    QCOMPARE(parse_palette(palette_name(PaletteKind::Distinct)), std::optional(PaletteKind::Distinct));
    QVERIFY(!parse_palette("rainbow"));
  }

  void replicationCountsMatchReplicas() {
    std::mt19937_64 rng(seed());
    const std::size_t n = 300, k = 9;
    PartitionStructure parts;
    parts.k = k;
    for (std::size_t i = 0; i < n; ++i) parts.membership.push_back(rng() % k);
    std::vector<std::uint64_t> own(k), received(k), sent(k);
    for (std::size_t i = 0; i < n; ++i) ++own[parts.membership[i]];
    for (int r = 0; r < 400; ++r) {
      const std::uint32_t point = rng() % n, to = rng() % k;
      parts.replica_point.push_back(point);
      parts.replica_partition.push_back(to);
      ++received[to], ++sent[parts.membership[point]];
    }
    const auto counts = replication_counts(parts);
    for (std::size_t p = 0; p < k; ++p) {
      QCOMPARE(counts[p].own, own[p]);
      QCOMPARE(counts[p].received, received[p]);
      QCOMPARE(counts[p].sent, sent[p]);
      QCOMPARE(received_by(parts, p).size(), received[p]);
    }
    parts.replica_partition.back() = k;  // names a partition that does not exist
    QVERIFY_THROWS_EXCEPTION(simjoin::Error, replication_counts(parts));
  }

  // The view's cells are cell_floor's for every input: random scales and origins, and points placed
  // on, and a few ulps either side of, cell borders (where the plain quotient cannot decide).
  void displayCellsAreTheEnginesCells() {
    std::mt19937_64 rng(seed());
    std::uniform_real_distribution<double> unit(-1, 1);
    std::uniform_int_distribution<int> exponent(-1060, 1000), cells(-100000, 100000), ulps(-4, 4);
    std::size_t near_border = 0;
    for (int trial = 0; trial < 200000; ++trial) {
      const double width = std::ldexp(1 + std::abs(unit(rng)), exponent(rng));
      const double origin = unit(rng) * std::ldexp(width, cells(rng) % 40);
      double x = origin + double(cells(rng)) * width;
      for (int step = ulps(rng); step != 0; step += step > 0 ? -1 : 1)
        x = std::nextafter(x, step > 0 ? INFINITY : -INFINITY);
      if (trial % 2) x += unit(rng) * width;
      if (!std::isfinite(x) || !(std::abs((x - origin) / width) < 0x1p60)) continue;
      near_border += trial % 2 == 0;
      QCOMPARE(display_cell(x, origin, width), cell_floor(x, origin, width));
    }
    QVERIFY(near_border > 50000);
  }

  void pickingReturnsNearestPoint() {
    std::mt19937_64 rng(seed());
    std::uniform_real_distribution<float> coord(0, 100);
    std::vector<float> xy;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t i = 0; i < 1000; ++i) xy.push_back(coord(rng)), xy.push_back(coord(rng)), ids.push_back(i * 3);
    for (int trial = 0; trial < 50; ++trial) {
      const std::size_t v = rng() % ids.size();
      const auto hit = pick_nearest(xy, ids, xy[2 * v] + 1e-4, xy[2 * v + 1] - 1e-4, 0.01);
      QVERIFY(hit.has_value());
      QCOMPARE(*hit, ids[v]);
    }
    QVERIFY(!pick_nearest(xy, ids, -50, -50, 1.0).has_value());
  }

  void replicationViewDrawsAllCellsIn2d() {
    const PointSet points = random_plane(800, seed());
    const double eps = 0.03;
    const auto projected = project_points(points, nullptr, kRawPlane);
    for (const int k : {5, 13}) {
      const RunResult result = run("cpu-kmeans", points, eps, k);
      QVERIFY(result.partitions);
      ViewInput input = plane_view(points, projected, ViewMode::Replication);
      input.partitions = &*result.partitions;
      input.eps = eps;
      const Layers layers = build_layers(input);
      QCOMPARE(layers.marker_xy.size(), std::size_t(2 * k));
      if (k > 12) {
        QVERIFY(layers.segments.empty());
        QVERIFY(!layers.notes.empty());
        continue;
      }
      // Every cell and band is a polygon of at least three edges, all inside the view.
      QVERIFY(layers.segments.size() / 4 >= std::size_t(2 * 3 * k));
      for (float c : layers.segments) QVERIFY(c >= -2 * eps - 1e-4 && c <= 1 + 2 * eps + 1e-4);
    }
  }

  // Whichever order the grid indexes the two dimensions in, both axis orders draw cells that cover
  // every point, shown as small grey points.
  void gridViewDrawsSmallGreyPoints() {
    const PointSet points = random_plane(600, seed());
    const RunResult result = run("cpu-grid", points, 0.1, 0);
    QVERIFY(result.grid);
    for (const Axes axes : {kRawPlane, Axes{false, 1, 0}}) {
      const auto projected = project_points(points, nullptr, axes);
      ViewInput input = plane_view(points, projected, ViewMode::Grid);
      input.axes = axes;
      input.grid = &*result.grid;
      input.eps = 0.1;
      const Layers layers = build_layers(input);
      QVERIFY(!layers.rects.empty());
      QVERIFY(layers.small_points);
      for (std::size_t v = 0; v < layers.ids.size(); ++v)
        QCOMPARE(Rgb({layers.rgb[3 * v], layers.rgb[3 * v + 1], layers.rgb[3 * v + 2]}), kGridPoint);
      for (std::size_t i = 0; i < points.size(); ++i) {
        const float x = projected[2 * i], y = projected[2 * i + 1];
        bool covered = false;
        for (std::size_t r = 0; r + 3 < layers.rects.size() && !covered; r += 4)
          covered = layers.rects[r] <= x + 1e-5f && x <= layers.rects[r + 2] + 1e-5f &&
                    layers.rects[r + 1] <= y + 1e-5f && y <= layers.rects[r + 3] + 1e-5f;
        QVERIFY2(covered, qPrintable(QString("point %1 lies in no drawn cell").arg(i)));
      }
    }
  }

  // The two far outliers, which run_engine joins apart from the grid, have cells of their own in the
  // view's grid (keyed by integer coordinates, so the unit square keeps its cells); picking one says
  // the engine joined it apart, picking another draws the cells it searches.
  void gridFarOutliersKeepTheirCells() {
    PointSet points = random_plane(600, seed());
    points.point(0)[0] = 1e6, points.point(0)[1] = -1e6;
    points.point(1)[0] = -1e6, points.point(1)[1] = 1e6;
    const RunResult result = run("cpu-grid", points, 0.1, 0);
    QVERIFY(result.grid);
    const auto projected = project_points(points, nullptr, kRawPlane);
    ViewInput input = plane_view(points, projected, ViewMode::Grid);
    input.grid = &*result.grid;
    input.eps = 0.1;
    input.picked = 7;
    const Layers layers = build_layers(input);
    QVERIFY(!layers.picked_facts.empty());
    for (const auto& note : layers.notes) QVERIFY(!QString::fromStdString(note).contains("far outside"));
    input.picked = 0;
    const Layers far = build_layers(input);
    QVERIFY(!far.picked_facts.empty());
    QCOMPARE(far.rects, layers.rects);
    bool noted = false;
    for (const auto& note : far.notes) noted = noted || QString::fromStdString(note).contains("far outside");
    QVERIFY(noted);
  }

  void unicompSearchesEachAdjacentPairOnce() {
    std::mt19937_64 rng(seed());
    for (std::size_t dims = 1; dims <= 4; ++dims)
      for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::int64_t> a(dims), b(dims);
        bool same = true;
        for (std::size_t j = 0; j < dims; ++j) {
          a[j] = std::int64_t(rng() % 20) - 10;
          b[j] = a[j] + std::int64_t(rng() % 3) - 1;
          same = same && a[j] == b[j];
        }
        const int searched = searches(a.data(), b.data(), dims, true) + searches(b.data(), a.data(), dims, true);
        QCOMPARE(searched, same ? 2 : 1);
        QVERIFY(searches(a.data(), b.data(), dims, false));
      }
  }
};

QTEST_GUILESS_MAIN(TestViewModels)
#include "test_view_models.moc"
