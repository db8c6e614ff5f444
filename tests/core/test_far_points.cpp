// Far points: which points run_engine sets apart (only where that narrows the frame's rounding bound,
// or the spread of an engine whose speed depends on it, and only while their float64 join stays cheap),
// the join of those points alone, and the renumbering of the rest's pairs.
#include <algorithm>
#include <numeric>

#include "core/frame/far_points.hpp"
#include "tests/core/grid_outliers.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;
using namespace simjoin::testing;

namespace {
std::vector<std::uint32_t> rows_from(std::uint32_t first, std::uint32_t last) {
  std::vector<std::uint32_t> rows(last - first);
  std::iota(rows.begin(), rows.end(), first);
  return rows;
}
}  // namespace

TEST(FarPoints, FoundWhereTheyWidenTheFrame) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet skewed = with_outliers(3000, 3, seed, 6, true);
  const FarPoints far = find_far_points({&skewed, nullptr}, 0.05, 0);
  EXPECT_EQ(far.a, rows_from(3000, 3007));
  EXPECT_TRUE(far.b.empty());
  // In B too, and B's alone.
  const PointSet plain = with_outliers(3000, 3, seed, 0, false);
  const FarPoints in_b = find_far_points({&plain, &skewed}, 0.05, 0);
  EXPECT_TRUE(in_b.a.empty());
  EXPECT_EQ(in_b.b, rows_from(3000, 3007));
  // None without outliers, and none where eps dwarfs the rounding at 1e15 (1e15 * 2^-24 * 64).
  EXPECT_TRUE(find_far_points({&plain, nullptr}, 0.05, 0).empty());
  EXPECT_TRUE(find_far_points({&skewed, nullptr}, 1e13, 0).empty());
  // None where setting them apart would cost more than the bound saves: a tenth of the points far out.
  PointSet spread = plain;
  for (std::size_t i = 0; i < spread.size(); i += 10) spread.point(i)[0] = 1e7 + double(i);
  EXPECT_TRUE(find_far_points({&spread, nullptr}, 0.05, 0).empty());
}

// For an engine whose speed falls with the spread (the tensor-core form), outliers 1,000 from the unit
// cube are set apart although the frame's rounding would not need it.
TEST(FarPoints, SetApartForTheSpreadWhereTheFrameNeedsNone) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet plain = random_points(Distribution::Uniform, 3000, 16, seed);
  PointSet points = plain;
  const std::vector<std::uint32_t> outliers{17, 1200, 2999};
  for (const std::uint32_t row : outliers) std::fill_n(points.point(row), 16, 1e3 + row);
  EXPECT_TRUE(find_far_points({&points, nullptr}, 0.3, 0).empty()) << "the frame's rounding needs none";
  EXPECT_EQ(find_far_points({&points, nullptr}, 0.3, 0, true).a, outliers);
  const FarPoints in_b = find_far_points({&plain, &points}, 0.3, 0, true);
  EXPECT_TRUE(in_b.a.empty());
  EXPECT_EQ(in_b.b, outliers);
  // None without them, and none where eps reaches across the data.
  EXPECT_TRUE(find_far_points({&plain, nullptr}, 0.3, 0, true).empty());
  EXPECT_TRUE(find_far_points({&points, nullptr}, 1e4, 0, true).empty());
}

// Where the cost would allow fewer (2^30 operations over 151,000 points of 16 dimensions: 444), up to
// 1,024 far points are set apart, those of A and B together: here each lies more than eps outside the
// middle and costs only its tests with the others. The samples are drawn by fixed seeds, so which
// rows they hold depends only on the sets' sizes.
TEST(FarPoints, AtMost1024WhereEachCouldNotTestEveryPoint) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto with_far_rows = [&](std::size_t n, std::size_t far) {
    PointSet points = random_points(Distribution::Uniform, n + far, 16, seed);
    for (std::size_t row = n; row < n + far; ++row) std::fill_n(points.point(row), 16, 1e3 + double(row));
    return points;
  };
  const PointSet few = with_far_rows(150000, 1000), many = with_far_rows(150000, 1100);
  EXPECT_EQ(find_far_points({&few, nullptr}, 0.3, 0, true).a.size(), 1000u);
  EXPECT_TRUE(find_far_points({&many, nullptr}, 0.3, 0, true).empty());
  const PointSet a = with_far_rows(75000, 400), b = with_far_rows(75000, 400);
  const FarPoints both = find_far_points({&a, &b}, 0.3, 0, true);
  EXPECT_EQ(both.a.size() + both.b.size(), 800u);
  const PointSet more_a = with_far_rows(75000, 600), more_b = with_far_rows(75000, 600);
  EXPECT_TRUE(find_far_points({&more_a, &more_b}, 0.3, 0, true).empty());
}

TEST(FarPoints, JoinedAloneAsTheOracleJoinsThem) {
  const std::uint64_t seed = test_seed() + 1;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = with_tail(with_outliers(3000, 2, seed, 6, true), 20, 0.06);
  const PointSet b = with_outliers(400, 2, seed + 1, 4, false);
  for (const PointSet* other : {static_cast<const PointSet*>(nullptr), &b}) {
    SCOPED_TRACE(other ? "A join B" : "self-join");
    const FarPoints far = find_far_points({&a, other}, 0.1, 0);
    ASSERT_GT(far.a.size(), 7u) << "the tail's end is far too";
    PairListSink sink;
    RunControl control;
    join_far_points({&a, other}, far, 0.1, 0, sink, control);
    // The oracle's pairs that have a far point.
    const auto is_far = [](const std::vector<std::uint32_t>& rows, std::uint32_t row) {
      return std::binary_search(rows.begin(), rows.end(), row);
    };
    std::vector<Pair> expected;
    for (const Pair& pair : oracle_pairs(a, other, 0.1))
      if (is_far(far.a, pair.i) || is_far(other ? far.b : far.a, pair.j)) expected.push_back(pair);
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(sink.sorted_pairs(), expected);
  }
}

TEST(FarPoints, RenumberedPairsAndCounts) {
  const std::vector<std::uint32_t> rows_a{2, 5, 9}, rows_b{0, 7};
  PairListSink list;
  RenumberingSink renumbered(list, rows_a, rows_b);
  const std::vector<Pair> pairs{{0, 1}, {2, 0}};
  renumbered.add(pairs);
  renumbered.finish();
  EXPECT_EQ(list.sorted_pairs(), (std::vector<Pair>{{2, 7}, {9, 0}}));
  CountSink count;
  RenumberingSink counted(count, rows_a, rows_b);
  counted.add_count(5);
  counted.finish();
  EXPECT_EQ(count.count(), 5u);
}
