// Epsilon-grid specifics: the reported structure is a consistent index of the points, the cost
// model's choice of indexed dimensions, and unicomp halving the distance tests without changing the
// result, also where a cell is split across tasks.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "core/engines/cpu_grid.hpp"
#include "core/engines/detail/grid_cell_sort.hpp"
#include "core/engines/detail/grid_join.hpp"
#include "core/frame/join_frame.hpp"
#include "core/numeric/grid_cell_order.hpp"
#include "tests/core/grid_check.hpp"
#include "tests/core/grid_outliers.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
RunResult run_grid(const PointSet& points, double eps, bool unicomp) {
  CpuGridEngine engine;
  JoinParams params;
  params.eps = eps;
  params.unicomp = unicomp;
  RunResult result;
  EXPECT_MATCHES_ORACLE(check_engine(engine, points, nullptr, params, &result));
  return result;
}
}  // namespace

class GridDims : public ::testing::TestWithParam<std::size_t> {};

TEST_P(GridDims, StructureIndexesEveryPointInItsCell) {
  const std::size_t d = GetParam();
  const std::uint64_t seed = test_seed() + d;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 2000, d, seed, 0, 1, 5, 0.1);
  const double eps = 0.05 * std::sqrt(double(d));
  const RunResult result = run_grid(points, eps, true);
  ASSERT_TRUE(result.grid);
  const GridStructure& grid = *result.grid;
  const std::size_t m = grid.indexed_dims.size();
  EXPECT_LE(m, EpsilonGrid::kMaxIndexed);
  EXPECT_LE(m, d);
  EXPECT_GE(grid.cell_width, eps);
  expect_valid_grid(grid, points);
}

TEST_P(GridDims, UnicompTestsEachPairOnceInsteadOfTwice) {
  const std::size_t d = GetParam();
  const std::uint64_t seed = test_seed() + 100 + d;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 1500, d, seed);
  const double eps = 0.1 * std::sqrt(double(d));
  const RunResult once = run_grid(points, eps, true);
  const RunResult twice = run_grid(points, eps, false);
  EXPECT_TRUE(once.grid->unicomp);
  EXPECT_FALSE(twice.grid->unicomp);
  const std::uint64_t whole = points.size() * (points.size() - 1) / 2;
  if (d > EpsilonGrid::kMaxIndexed) {
    // eps spans most of every dimension: the grid finds it cannot prune and the nested loop tests
    // each pair once either way.
    for (const RunResult* run : {&once, &twice}) {
      EXPECT_EQ(run->stats.compared_pairs, whole);
      EXPECT_GT(run->stats.estimated_tests, whole / 2);
    }
    return;
  }
  EXPECT_EQ(2 * once.stats.compared_pairs, twice.stats.compared_pairs);
  EXPECT_LE(once.stats.compared_pairs, whole);
}

INSTANTIATE_TEST_SUITE_P(Dims, GridDims, ::testing::Values(1, 2, 3, 5, 8, 33));

TEST(Grid, WideDataIndexesTheWidestDimensions) {
  const std::uint64_t seed = test_seed() + 31;
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = random_points(Distribution::Uniform, 1500, 10, seed);
  // Dimensions 7 and 2 are stretched tenfold: 20 cells each, where the others have 2 or 3. They
  // are the ones worth indexing, and they come first.
  for (std::size_t i = 0; i < points.size(); ++i) {
    points.point(i)[7] *= 10;
    points.point(i)[2] *= 10;
  }
  const RunResult result = run_grid(points, 0.5, true);
  const auto& dims = result.grid->indexed_dims;
  ASSERT_GE(dims.size(), 2u);
  EXPECT_TRUE((dims[0] == 7 && dims[1] == 2) || (dims[0] == 2 && dims[1] == 7));
}

// The cost model indexes as many dimensions as pay: all of them where the cells stay well filled,
// few where indexing more would leave most of the 3^m neighbour cells empty (each still a lookup).
TEST(Grid, CostModelIndexesTheDimensionsThatPay) {
  const std::uint64_t seed = test_seed() + 41;
  SCOPED_TRACE("seed " + std::to_string(seed));
  // 2-d, about 6 points per cell: both dimensions.
  const PointSet dense = random_points(Distribution::Uniform, 6000, 2, seed);
  EXPECT_EQ(run_grid(dense, 0.03, true).grid->indexed_dims.size(), 2u);
  // 6-d, 8 cells a side (262,144 cells) for 4000 points: indexing all six would make nearly every
  // cell a singleton with 243 rows of neighbours to look up, and indexing none would test all pairs.
  const PointSet sparse = random_points(Distribution::Uniform, 4000, 6, seed + 1);
  const RunResult result = run_grid(sparse, 0.2, true);
  const std::size_t m = result.grid->indexed_dims.size();
  EXPECT_GE(m, 2u);
  EXPECT_LE(m, 4u);
  ASSERT_FALSE(result.stats.notes.empty());
  EXPECT_NE(result.stats.notes.front().find("cost model"), std::string::npos) << result.stats.notes.front();
}

// Cells holding more queries than one task: the own cell is split across tasks, and unicomp must
// still test each pair once (and, without it, twice). Twenty clusters of 300 points, each within a few
// cells: the grid expects to test about a tenth of the pairs, far from the share above which it hands
// the join to the nested loop, wherever the clusters fall.
TEST(Grid, CellsLargerThanOneTask) {
  const std::uint64_t seed = test_seed() + 51;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 6000, 2, seed, 0, 1, 20, 0.005);
  const RunResult once = run_grid(points, 0.1, true);
  const RunResult twice = run_grid(points, 0.1, false);
  std::uint32_t largest = 0;
  for (std::size_t c = 0; c < once.grid->cell_count(); ++c)
    largest = std::max(largest, once.grid->cell_end[c] - once.grid->cell_begin[c]);
  EXPECT_GT(largest, 2 * kGridTaskQueries);
  EXPECT_LT(once.stats.estimated_tests, candidate_pairs(true, points.size(), points.size()) / 4);
  EXPECT_EQ(2 * once.stats.compared_pairs, twice.stats.compared_pairs);
}

// Far outliers: cells are keyed by their coordinates, so the outliers cost a few cells, never wider
// ones; run_engine joins them apart, so the cells hold the other points and are as wide as the
// search radius of the inliers' frame; the join stays exact.
TEST(Grid, FarOutliersJoinExactly) {
  const std::uint64_t seed = test_seed() + 61;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3})
    for (bool huge : {false, true}) {
      SCOPED_TRACE("d = " + std::to_string(d) + (huge ? " with a point at 1e15" : ""));
      const PointSet points = with_outliers(2000, d, seed + d, 6, huge);
      const JoinFrame inliers_frame(with_outliers(2000, d, seed + d, 0, false), nullptr, 0.05);
      std::vector<std::uint32_t> outliers(points.size() - 2000);
      std::iota(outliers.begin(), outliers.end(), 2000u);
      for (bool unicomp : {true, false}) {
        const RunResult result = run_grid(points, 0.05, unicomp);
        const double radius = inliers_frame.to_file_length(inliers_frame.search_radius());
        // The width the neighbour search needs (core/numeric/numeric_rules.hpp: at least r (1 + 2^-20)),
        // and no more than 1e-5 wider: numbers of their own, so that a changed kCellWidthMargin shows.
        EXPECT_GE(result.grid->cell_width, radius * (1 + 0x1p-20));
        EXPECT_LE(result.grid->cell_width, radius * (1 + 1e-5));
        expect_valid_grid(*result.grid, points, outliers);
      }
      const PointSet other = with_outliers(500, d, seed + 10 + d, 4, huge);
      CpuGridEngine engine;
      JoinParams params;
      params.eps = 0.05;
      EXPECT_MATCHES_ORACLE(check_engine(engine, points, &other, params));
    }
}

// Outliers at +-1e7 and 1e15 leave the distance tests as they are (within 1 %): the grid keys cells
// by coordinates, and run_engine keeps the outliers out of the frame.
TEST(Grid, FarOutliersKeepTheTestCount) {
  const std::uint64_t seed = test_seed() + 71;
  SCOPED_TRACE("seed " + std::to_string(seed));
  CpuGridEngine engine;
  for (std::size_t d : {2, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet plain = with_outliers(2000, d, seed + d, 0, false);
    const PointSet skewed = with_outliers(2000, d, seed + d, 6, true);
    const PointSet queries = with_outliers(500, d, seed + 10 + d, 0, false);
    for (const PointSet* b : {static_cast<const PointSet*>(nullptr), &queries}) {
      const std::uint64_t before = compared_pairs(engine, plain, b, 0.05);
      const std::uint64_t after = compared_pairs(engine, skewed, b, 0.05);
      EXPECT_LE(double(after), 1.01 * double(before)) << (b ? "A join B" : "self-join");
    }
  }
}

// Cell coordinates of huge quotients are exact floors up to a tiny fraction of a cell, where a plain
// float64 quotient (its ulp 128 cells at 2^59) would be off by dozens of cells.
TEST(Grid, CellFloorIsExactForHugeQuotients) {
  // width = 5/8: every remainder below is exact in long double (64-bit significands).
  const double width = 0.625;
  for (double origin : {-1e15, -3e17, -1e17 - 0.3}) {
    for (int i = 0; i < 1000; ++i) {
      const double x = 1e17 + std::ldexp(double(i), 33);
      const std::int64_t c = cell_floor(x, origin, width);
      const long double rest = (static_cast<long double>(x) - origin) - static_cast<long double>(c) * width;
      EXPECT_GE(rest, -1e-9L * width) << x << " " << origin;
      EXPECT_LT(rest, width * (1 + 1e-9L)) << x << " " << origin;
    }
  }
}

// The radix-sort key ranges cover every slot in order, each within 64 bits, also where a slot needs
// no bits (all its coordinates 0).
TEST(Grid, CellKeyRangesCoverEverySlot) {
  for (const std::vector<int>& bits : std::vector<std::vector<int>>{{}, {0}, {0, 5}, {40, 40, 0, 30}, {61, 61, 3}}) {
    const auto ranges = cell_key_ranges(bits);
    int next = 0;
    for (const auto& [first, last] : ranges) {
      EXPECT_EQ(first, next);
      EXPECT_LT(first, last);
      int used = 0;
      for (int s = first; s < last; ++s) used += bits[s];
      EXPECT_LE(used, 64);
      next = last;
    }
    EXPECT_EQ(next, int(bits.size()));
  }
}

namespace {
// Points in the join's frame, as cpu-grid indexes them.
struct FramedPoints {
  PointSet exact;
  JoinFrame frame;
  PointSet32 framed;
  JoinInputs inputs;
  FramedPoints(PointSet points, double eps)
      : exact(std::move(points)), frame(exact, nullptr, eps), framed(frame.to_frame(exact)) {
    inputs.a = &framed;
    inputs.exact_a = &exact;
    inputs.band = frame.band();
    inputs.search_radius = frame.search_radius();
  }
};

// Every candidate (query row, point row, float32 squared distance) of `tasks`, sorted.
std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> candidates(const GridJoin& join,
                                                                        const std::vector<GridTask>& tasks,
                                                                        std::uint64_t& tests) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> found;
  tests = 0;
  for (const GridTask& task : tasks)
    tests += join.run(task, [&](std::uint32_t q, std::uint32_t p, float d2) { found.emplace_back(q, p, d2); });
  std::sort(found.begin(), found.end());
  return found;
}
}  // namespace

// Tasks of several small cells walk their neighbour rows forward (EpsilonGrid::RowWalk) instead of
// looking each cell's rows up: they must test exactly what tasks of one cell each test, with and
// without unicomp.
TEST(Grid, TasksOfManyCellsTestWhatOneCellTasksTest) {
  const std::uint64_t seed = test_seed() + 71;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const FramedPoints points(random_points(Distribution::Uniform, 20000, 2, seed), 0.005);
  for (bool unicomp : {true, false}) {
    JoinParams params;
    params.eps = 0.005;
    params.unicomp = unicomp;
    const GridJoin join(PointRows(points.framed), PointRows(points.framed), true, points.inputs, params);
    ASSERT_EQ(join.grid().indexed(), 2u);
    const std::vector<GridTask> grouped = join.tasks(), single = join.tasks(true);
    EXPECT_LT(grouped.size(), single.size() / 2);  // most tasks hold several cells
    std::uint64_t grouped_tests = 0, single_tests = 0;
    const auto found = candidates(join, grouped, grouped_tests);
    EXPECT_EQ(found, candidates(join, single, single_tests));
    EXPECT_EQ(grouped_tests, single_tests);
    EXPECT_GT(found.size(), 10000u);
  }
}

// The packed sort (one 64-bit word a row) and the tuple sort it falls back to when a coordinate
// needs more bits than guessed order the cells alike; SlotCells gives cell_coordinate's values, also
// for points on and next to cell borders.
TEST(Grid, PackedCellSortMatchesTheTupleSort) {
  const std::uint64_t seed = test_seed() + 81;
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = random_points(Distribution::Clusters, 3000, 3, seed, 0, 10, 20, 0.5);
  GridStructure g;
  g.cell_width = 0.1 * (1 + kCellWidthMargin);
  g.indexed_dims = {2, 0, 1};
  const Bounds64 bounds = compute_bounds(points);
  for (int k : g.indexed_dims) g.origin.push_back(bounds.low[std::size_t(k)] - g.cell_width);
  // A tenth of the points on cell borders of their first coordinate, or one float step beside one.
  for (std::size_t i = 0; i < points.size(); i += 10) {
    const double border = g.origin[1] + std::round((points.point(i)[0] - g.origin[1]) / g.cell_width) * g.cell_width;
    const float on = float(border);
    points.point(i)[0] = i % 3 == 0 ? on : std::nextafter(on, i % 3 == 1 ? -INFINITY : INFINITY);
  }
  PointSet32 framed = PointSet32::uninitialized(points.size(), 3);
  for (std::size_t i = 0; i < points.size() * 3; ++i) framed.data()[i] = float(points.data()[i]);
  const PointRows rows(framed);
  for (std::size_t s = 0; s < 3; ++s) {
    const EpsilonGrid::SlotCells slot(g, s);
    for (std::size_t r = 0; r < rows.size(); ++r)
      ASSERT_EQ(slot(rows.point(r)), EpsilonGrid::cell_coordinate(g, rows.point(r), s)) << "row " << r;
  }
  GridStructure packed, tuples;
  sort_into_cells(rows, g, cell_coordinate_bits(g, compute_bounds(points).high), 1, packed, nullptr);
  sort_into_cells(rows, g, {0, 0, 0}, 1, tuples, nullptr);  // every coordinate overflows: the tuple sort
  EXPECT_GT(packed.cell_count(), 100u);
  EXPECT_EQ(packed.point_order, tuples.point_order);
  EXPECT_EQ(packed.cell_coords, tuples.cell_coords);
  EXPECT_EQ(packed.cell_begin, tuples.cell_begin);
  EXPECT_EQ(packed.cell_end, tuples.cell_end);
  g.point_order = packed.point_order;
  g.cell_coords = packed.cell_coords;
  g.cell_begin = packed.cell_begin;
  g.cell_end = packed.cell_end;
  expect_valid_grid(g, points);
}
