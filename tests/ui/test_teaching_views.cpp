// The teaching views on fresh random inputs: the Grid view's epsilon-grid of any viewed plane, the
// picked point's search (searched and skipped cells, candidates, neighbours, tests unicomp saves),
// super-cells, and replication point by point (the copies listed equal the engine's structure, the
// partitions' colours, numbered centroids, copy markers, plane traces for d > 2, no bands without
// replication).
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <QtTest>

#include "core/points/pca.hpp"
#include "core/run/run_engine.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/format/count_text.hpp"
#include "ui/views/grid_cells.hpp"
#include "ui/views/grid_layers.hpp"
#include "ui/views/grid_search.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/replication.hpp"
#include "ui/views/view_layers.hpp"

using namespace simjoin;
using namespace simjoin::ui;

namespace {
PointSet random_points(std::size_t n, std::size_t d, std::uint64_t salt) {
  std::mt19937_64 rng(testing::seed() + salt);
  std::uniform_real_distribution<double> coord(0, 1);
  PointSet points(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) points.point(i)[j] = coord(rng);
  return points;
}

RunResult run(const std::string& engine, const PointSet& points, double eps, int k) {
  JoinParams params;
  params.eps = eps;
  params.k = k;
  CountSink sink;
  RunControl control;
  return run_engine(testing::test_registry().get(engine), {&points, nullptr}, params, sink, control);
}

// A view of `points` in `mode` with the run's structures; `projected` must outlive it.
struct View {
  const PointSet& points;
  Pca pca;
  std::vector<float> projected;
  ViewInput input;
  View(const PointSet& p, const Axes& axes, ViewMode mode, const RunResult* result, double eps)
      : points(p), pca(fit_pca(p)), projected(project_points(p, &pca, axes)) {
    input.points = &points;
    input.pca = &pca;
    input.axes = axes;
    input.projected = &projected;
    input.mode = mode;
    input.eps = eps;
    input.show_run(result);
  }
};

// The Replication view (principal axes, k = 4) of a run of `engine`.
Layers replication_view(const std::string& engine, const PointSet& points, double eps) {
  const RunResult result = run(engine, points, eps, 4);
  View view(points, {true, 0, 1}, ViewMode::Replication, &result, eps);
  return build_layers(view.input);
}

std::size_t segments_coloured(const Layers& layers, Rgb color) {
  std::size_t count = 0;
  for (std::size_t s = 0; s < layers.segment_rgb.size(); s += 3)
    count += Rgb{layers.segment_rgb[s], layers.segment_rgb[s + 1], layers.segment_rgb[s + 2]} == color;
  return count;
}

bool has_fact(const Layers& layers, const QString& text) {
  for (const auto& fact : layers.picked_facts)
    if (QString::fromStdString(fact.label).contains(text)) return true;
  return false;
}

bool in_list(const std::vector<std::uint32_t>& list, std::uint32_t id) {
  return std::find(list.begin(), list.end(), id) != list.end();
}
}  // namespace

class TestTeachingViews : public QObject {
  Q_OBJECT

 private slots:
  // Picking keeps every cell (opaque, so VTK draws them in its opaque pass) and adds the search: both
  // hatches, the 3 x 3 outline, the eps-circle, and the counts as facts.
  void pickingKeepsTheGridAndDrawsTheSearch() {
    const PointSet points = random_points(1500, 2, 1);
    const double eps = 0.05;
    const RunResult result = run("cpu-grid", points, eps, 0);
    QVERIFY(result.grid);
    View view(points,
              {false, std::size_t(result.grid->indexed_dims.at(0)), std::size_t(result.grid->indexed_dims.at(1))},
              ViewMode::Grid, &result, eps);
    const Layers plain = build_layers(view.input);
    QVERIFY(!plain.rects.empty());
    QCOMPARE(plain.rect_rgb.size(), plain.rects.size() / 4 * 3);
    bool searched = false, skipped = false;
    for (std::uint32_t picked = 0; picked < 40; ++picked) {
      view.input.picked = picked;
      const Layers layers = build_layers(view.input);
      QCOMPARE(layers.rects, plain.rects);
      QCOMPARE(layers.rect_rgb, plain.rect_rgb);
      searched = searched || segments_coloured(layers, {0, 150, 60}) > 0;
      skipped = skipped || segments_coloured(layers, {140, 86, 75}) > 0;
      QVERIFY(has_fact(layers, "candidates tested"));
      QVERIFY(has_fact(layers, "neighbours found"));
    }
    QVERIFY(searched && skipped);
  }

  // Each query's candidates and saved tests together cover its 3 x 3 block, and each neighbour is
  // found exactly once: by the query, or by the neighbour's own search (unicomp).
  void searchFindsEveryPairOnce() {
    for (const std::size_t d : {2, 3, 5}) {
      const PointSet points = random_points(900, d, 2 + d);
      const double eps = 0.12;
      const Pca pca = fit_pca(points);
      const std::vector<double> st = plane_coordinates(points, view_plane(points, &pca, {true, 0, 1}));
      const PlaneGrid grid = plane_grid(st, eps, median_origin(st));
      std::vector<GridSearch> searches;
      for (std::uint32_t i = 0; i < points.size(); ++i) searches.push_back(search_from(grid, points, i, eps, true));
      for (std::uint32_t i = 0; i < points.size(); ++i) {
        const GridSearch& s = searches[i];
        std::uint64_t block = 0;
        for (std::uint32_t q = 0; q < points.size(); ++q)
          block += q != i && std::abs(grid.point_cell[q][0] - s.home[0]) <= 1 &&
                   std::abs(grid.point_cell[q][1] - s.home[1]) <= 1;
        QCOMPARE(s.candidates.size() + s.saved, block);
        QCOMPARE(s.searched.size() + s.skipped.size(), std::size_t(9));
        for (std::uint32_t q : neighbours_within(points, i, eps))
          QCOMPARE(int(in_list(s.found, q)) + int(in_list(searches[q].found, i)), 1);
      }
    }
  }

  // For 3-D data on principal axes the Grid view shows the plane's own grid, whose cells cover every
  // point, and says what the engine's grid indexes.
  void gridOnPrincipalAxesOf3d() {
    const PointSet points = random_points(2000, 3, 3);
    const double eps = 0.04;
    const RunResult result = run("cpu-grid", points, eps, 0);
    View view(points, {true, 0, 1}, ViewMode::Grid, &result, eps);
    view.input.picked = 5;
    const Layers layers = build_layers(view.input);
    QVERIFY(!layers.rects.empty());
    for (std::size_t i = 0; i < points.size(); i += 7) {
      const float x = view.projected[2 * i], y = view.projected[2 * i + 1];
      bool covered = false;
      for (std::size_t r = 0; r + 3 < layers.rects.size() && !covered; r += 4)
        covered = layers.rects[r] <= x + 1e-5f && x <= layers.rects[r + 2] + 1e-5f &&
                  layers.rects[r + 1] <= y + 1e-5f && y <= layers.rects[r + 3] + 1e-5f;
      QVERIFY2(covered, qPrintable(QString("point %1 lies in no drawn cell").arg(i)));
    }
    QString notes;
    for (const auto& note : layers.notes) notes += QString::fromStdString(note) + "\n";
    QVERIFY2(notes.contains("cpu-grid's grid: indexed"), qPrintable(notes));
    QVERIFY2(notes.contains("epsilon-grid of the viewed axes"), qPrintable(notes));
    QVERIFY(has_fact(layers, "candidates tested"));
  }

  // Far outliers add cells of their own; more cells than can be drawn become super-cells, with a note.
  void manyCellsBecomeSuperCells() {
    PointSet points = random_points(kMaxDrawnCells + 50'000, 2, 4);
    points.point(0)[0] = 1e12;
    const double eps = 1e-4;
    View view(points, {false, 0, 1}, ViewMode::Grid, nullptr, eps);
    const Layers layers = build_layers(view.input);
    QVERIFY(layers.rects.size() / 4 <= kMaxDrawnCells);
    QVERIFY(layers.rects.size() / 4 > kMaxDrawnCells / 8);
    bool noted = false;
    for (const auto& note : layers.notes) noted = noted || QString::fromStdString(note).contains("super-cells");
    QVERIFY(noted);

    // A zoomed figure's region needs only the cells inside it: drawn as themselves.
    view.input.region = std::array<double, 4>{0.2, 0.2, 0.3, 0.3};
    const Layers zoomed = build_layers(view.input);
    const std::size_t cells = zoomed.rects.size() / 4;
    QVERIFY2(cells > 300 && cells < 1000, qPrintable(QString::number(cells)));
    for (std::size_t r = 0; r < cells; ++r) {
      const float* rect = &zoomed.rects[4 * r];
      QVERIFY(rect[2] - rect[0] < 1.01 * eps && rect[2] >= 0.2 && rect[0] <= 0.3);
    }
    for (const auto& note : zoomed.notes) QVERIFY(!QString::fromStdString(note).contains("super-cells"));

    // A pick, where the whole grid would need super-cells: its surroundings' own cells, noted, and
    // every point the view zooms to, whatever the evenly spaced subset.
    const double wider = 0.004;  // 62,500 cells of the unit square, most of them non-empty
    view.input.region.reset();
    view.input.eps = wider;
    view.input.picked = 12345;
    view.input.max_display = 10'000;
    const Layers picked = build_layers(view.input);
    const float px = view.projected[2 * 12345], py = view.projected[2 * 12345 + 1];
    for (std::size_t r = 0; r < picked.rects.size() / 4; ++r)
      QVERIFY(std::abs(picked.rects[4 * r] - px) < 10 * wider && std::abs(picked.rects[4 * r + 1] - py) < 10 * wider);
    QString notes;
    for (const auto& note : picked.notes) notes += QString::fromStdString(note);
    QVERIFY2(notes.contains("Cells drawn around the picked point only"), qPrintable(notes));
    const std::set<std::uint32_t> drawn(picked.ids.begin(), picked.ids.end());
    std::size_t near = 0;
    for (std::uint32_t i = 0; i < points.size(); ++i)
      if (std::abs(view.projected[2 * i] - px) <= 8 * wider && std::abs(view.projected[2 * i + 1] - py) <= 8 * wider) {
        ++near;
        QVERIFY2(drawn.count(i), qPrintable(QString("point %1 near the pick is not drawn").arg(i)));
      }
    QVERIFY2(near > 100, qPrintable(QString::number(near)));
  }

  // The occupancy shading is log-scaled and spans its whole ramp: one point and the fullest cell differ.
  void occupancyShadeDoesNotSaturate() {
    QVERIFY(occupancy_shade(1, 1000) != occupancy_shade(1000, 1000));
    QVERIFY(occupancy_shade(2, 1000) != occupancy_shade(1, 1000));
    QVERIFY(occupancy_shade(31, 1000)[2] > occupancy_shade(1000, 1000)[2]);
    QVERIFY(occupancy_shade(31, 1000)[2] < occupancy_shade(1, 1000)[2]);
  }

  // Every point's listed copies are exactly the engine's replicas of it, each with the bisector
  // distance computed in full dimension; the picked point's facts name them.
  void copiesOfAPointAreTheEnginesReplicas() {
    for (const std::size_t d : {2, 8}) {
      const PointSet points = random_points(1200, d, 10 + d);
      const double eps = d == 2 ? 0.03 : 0.25;
      const RunResult result = run("cpu-kmeans", points, eps, 6);
      const PartitionStructure& s = *result.partitions;
      QVERIFY(!s.replica_point.empty());
      for (std::uint32_t i = 0; i < points.size(); ++i) {
        std::vector<std::uint32_t> expected;
        for (std::size_t r = 0; r < s.replica_point.size(); ++r)
          if (s.replica_point[r] == i) expected.push_back(s.replica_partition[r]);
        std::sort(expected.begin(), expected.end());
        const PointCopies copies = point_copies(s, points, i);
        QCOMPARE(copies.home, s.membership[i]);
        std::vector<std::uint32_t> listed;
        for (const CopyReason& c : copies.copies) {
          listed.push_back(c.partition);
          QCOMPARE(c.h,
                   bisector_distance(points.point(i), &s.centroids[copies.home * d], &s.centroids[c.partition * d], d));
        }
        QCOMPARE(listed, expected);
        // Not copied means farther than eps from that bisector.
        if (copies.nearest_kept) QVERIFY(copies.nearest_kept->h > eps);
      }
      const std::uint32_t copied = s.replica_point.front();
      View view(points, {true, 0, 1}, ViewMode::Replication, &result, eps);
      view.input.picked = copied;
      const Layers layers = build_layers(view.input);
      for (std::size_t r = 0; r < s.replica_point.size(); ++r)
        if (s.replica_point[r] == copied)
          QVERIFY(has_fact(layers, QString("copied into %1: h = ").arg(s.replica_partition[r])));
    }
  }

  // A pair across two partitions is made possible by the copy of each point into the other's home
  // (each lies within eps of their bisector), and reported only from the highest partition holding both.
  void everyCrossPairComesFromACopy() {
    for (const std::size_t d : {2, 6}) {
      const PointSet points = random_points(900, d, 30 + d);
      const double eps = d == 2 ? 0.04 : 0.3;
      const RunResult result = run("cpu-kmeans", points, eps, 7);
      const PartitionStructure& s = *result.partitions;
      std::vector<std::vector<std::uint32_t>> holding(points.size());  // home, then copies
      for (std::uint32_t p = 0; p < points.size(); ++p) holding[p].push_back(s.membership[p]);
      for (std::size_t r = 0; r < s.replica_point.size(); ++r)
        holding[s.replica_point[r]].push_back(s.replica_partition[r]);
      const auto reporter = [&](std::uint32_t p, std::uint32_t q) {
        int best = -1;
        for (std::uint32_t c : holding[p])
          if (std::count(holding[q].begin(), holding[q].end(), c)) best = std::max(best, int(c));
        return best;
      };
      std::size_t cross = 0;
      for (std::uint32_t p = 0; p < points.size(); ++p) {
        const std::vector<std::uint32_t> neighbours = neighbours_within(points, p, eps);
        const PointCopies copies = point_copies(s, points, p);
        const std::vector<CopyPairs> made = pairs_by_copy(s, copies, neighbours);
        QCOMPARE(made.size(), copies.copies.size());
        for (std::uint32_t q : neighbours) {
          QVERIFY2(reporter(p, q) >= 0, qPrintable(QString("pair (%1, %2) shares no partition").arg(p).arg(q)));
          if (s.membership[q] == copies.home) continue;
          ++cross;
          std::size_t listings = 0;
          for (const CopyPairs& copy : made)
            if (std::count(copy.neighbours.begin(), copy.neighbours.end(), q)) {
              ++listings;
              QCOMPARE(copy.partition, s.membership[q]);
            }
          QVERIFY2(listings == 1,
                   qPrintable(QString("pair (%1, %2): listed under %3 copies").arg(p).arg(q).arg(listings)));
        }
        for (const CopyPairs& copy : made) {
          std::size_t here = 0;
          for (std::uint32_t q : copy.neighbours) here += reporter(p, q) == int(copy.partition);
          QCOMPARE(copy.reported_here, here);
        }
      }
      QVERIFY(cross > 0);  // the data has pairs across partitions
      // The picked point's facts say it, for a point whose copy made a pair.
      for (std::uint32_t p = 0; p < points.size(); ++p) {
        const auto made = pairs_by_copy(s, point_copies(s, points, p), neighbours_within(points, p, eps));
        const auto useful =
            std::find_if(made.begin(), made.end(), [](const CopyPairs& c) { return !c.neighbours.empty(); });
        if (useful == made.end()) continue;
        View view(points, {true, 0, 1}, ViewMode::Replication, &result, eps);
        view.input.picked = p;
        const Layers layers = build_layers(view.input);
        // A count first, then the neighbours as point ids, each named for what it is.
        const QString count = QString::fromStdString(count_text(useful->neighbours.size()));
        QVERIFY(has_fact(layers, QString("  pairs made there: %1, with point").arg(count)));
        QVERIFY(has_fact(layers, QString(" %1").arg(useful->neighbours.front())));
        QVERIFY(has_fact(layers, QString("  reported there: %1 of the %2")
                                     .arg(QString::fromStdString(count_text(useful->reported_here)), count)));
        break;
      }
    }
  }

  // Partition = all: points in their partition's colour, numbered centroids, a copy marker per
  // replica in the receiving partition's colour; a selected partition shows what it receives and sends.
  void replicationViewColoursAndCopies() {
    const PointSet points = random_points(1000, 2, 20);
    const double eps = 0.04;
    const RunResult result = run("cpu-kmeans", points, eps, 5);
    const PartitionStructure& s = *result.partitions;
    View view(points, {false, 0, 1}, ViewMode::Replication, &result, eps);
    const Layers all = build_layers(view.input);
    for (std::size_t v = 0; v < all.ids.size(); ++v)
      QCOMPARE(Rgb({all.rgb[3 * v], all.rgb[3 * v + 1], all.rgb[3 * v + 2]}), category_color(s.membership[all.ids[v]]));
    QCOMPARE(all.labels.size(), s.k);
    for (std::size_t p = 0; p < s.k; ++p) QCOMPARE(all.labels[p].text, std::to_string(p));
    QCOMPARE(all.copy_xy.size(), 2 * s.replica_point.size());
    for (std::size_t r = 0; r < s.replica_point.size(); ++r)
      QCOMPARE(Rgb({all.copy_rgb[3 * r], all.copy_rgb[3 * r + 1], all.copy_rgb[3 * r + 2]}),
               category_color(s.replica_partition[r]));
    const auto counts = replication_counts(s);
    view.input.selected_partition = 2;
    const Layers one = build_layers(view.input);
    QCOMPARE(one.copy_xy.size(), 2 * (counts[2].received + counts[2].sent));
  }

  // For d > 2 the bisectors are drawn as their traces in the view plane, labelled so.
  void tracesOfBisectorsForHigherDimensions() {
    const Layers layers = replication_view("cpu-kmeans", random_points(1500, 8, 30), 0.2);
    QVERIFY(segments_coloured(layers, {0, 0, 0}) >= 3);
    QVERIFY(segments_coloured(layers, kBand) >= 3);
    bool labelled = false;
    for (const auto& entry : layers.legend)
      labelled = labelled || QString::fromStdString(entry.label).contains("traces of the 8-D");
    QVERIFY(labelled);
  }

  // cpu-kmeans-approx copies nothing: no eps-bands, no "receives copies", and a note saying why.
  void approximateEngineDrawsNoBands() {
    const Layers layers = replication_view("cpu-kmeans-approx", random_points(1000, 2, 40), 0.04);
    QCOMPARE(segments_coloured(layers, kBand), std::size_t(0));
    QVERIFY(segments_coloured(layers, {0, 0, 0}) > 0);
    for (const auto& entry : layers.legend) QVERIFY(!QString::fromStdString(entry.label).contains("receives copies"));
    QVERIFY(!layers.notes.empty());
  }

  // The note that says why KMEANS-JOIN loses: shown where the partitions were expected to test at
  // least half the whole set's pairs, not where they prune.
  void replicationViewExplainsTestsWhereThePartitionsCannotPrune() {
    const PointSet points = random_points(1000, 2, 60);
    RunResult result = run("cpu-kmeans", points, 0.04, 4);
    const auto explained = [&](const RunResult& shown) {
      View view(points, {true, 0, 1}, ViewMode::Replication, &shown, 0.04);
      const Layers layers = build_layers(view.input);
      return std::any_of(layers.notes.begin(), layers.notes.end(), [](const std::string& note) {
        return note.find("times the whole set's") != std::string::npos;
      });
    };
    const std::uint64_t whole = candidate_pairs(true, points.size(), 0);
    QVERIFY(result.stats.estimated_tests > 0);
    QVERIFY(2 * result.stats.estimated_tests < whole);
    QVERIFY(!explained(result));
    result.stats.estimated_tests = whole;
    QVERIFY(explained(result));
  }

  // One partition has no bisector and copies nothing: no cell outline or eps-band frames the data,
  // in the Replication and the Partitions views, on 2-D and 8-D points.
  void onePartitionDrawsNoBandAroundTheData() {
    for (const std::size_t d : {std::size_t(2), std::size_t(8)}) {
      const PointSet points = random_points(800, d, 50 + d);
      const RunResult result = run("cpu-kmeans", points, 0.05, 1);
      QCOMPARE(result.partitions->k, std::size_t(1));
      for (const ViewMode mode : {ViewMode::Replication, ViewMode::Partitions}) {
        View view(points, {true, 0, 1}, mode, &result, 0.05);
        const Layers layers = build_layers(view.input);
        QCOMPARE(segments_coloured(layers, kBand), std::size_t(0));
        QCOMPARE(segments_coloured(layers, {0, 0, 0}), std::size_t(0));
        for (const auto& entry : layers.legend) QVERIFY(!QString::fromStdString(entry.label).contains("eps-band"));
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestTeachingViews)
#include "test_teaching_views.moc"
