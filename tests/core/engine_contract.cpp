// The engine contract (tests/core/engine_contract.hpp): every case, for whichever registry a test
// binary instantiates it over.
#include "tests/core/engine_contract.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/gpu_required.hpp"
#include "tests/core/grid_outliers.hpp"
#include "tests/core/margin_sets.hpp"
#include "tests/core/tie_sets.hpp"

namespace simjoin::testing {

std::vector<ContractCase> contract_cases(const EngineRegistry& registry, const std::vector<std::string>& skip) {
  std::vector<ContractCase> cases;
  for (const std::string& name : registry.names())
    if (std::find(skip.begin(), skip.end(), name) == skip.end()) cases.push_back({&registry, name});
  return cases;
}

std::string contract_case_name(const ::testing::TestParamInfo<ContractCase>& info) {
  std::string name = info.param.engine;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

void EngineContract::SetUp() {
  const Availability availability = engine().availability();
  if (availability.available) return;
  if (engine().capabilities().gpu && gpu_required())
    GTEST_FAIL() << kGpuRequiredMessage << GetParam().engine << ": " << availability.reason;
  GTEST_SKIP() << GetParam().engine << ": " << availability.reason;
}

void EngineContract::TearDown() {
  if (skipped_dims_.empty()) return;
  std::string dims;
  for (const std::size_t d : skipped_dims_) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  const std::string message = GetParam().engine + " joins at most " + std::to_string(engine().capabilities().max_dims) +
                              " dimensions: d = " + dims + " not tested";
  RecordProperty("skipped", message);
  if (!joined_) GTEST_SKIP() << message;
  std::cout << "[   NOTE   ] " << message << std::endl;
}

bool EngineContract::supports(std::size_t d) {
  if (d <= engine().capabilities().max_dims) return true;
  if (std::find(skipped_dims_.begin(), skipped_dims_.end(), d) == skipped_dims_.end()) skipped_dims_.push_back(d);
  return false;
}

JoinParams EngineContract::params(double eps) const {
  JoinParams p;
  p.eps = eps;
  p.seed = test_seed();
  return p;
}

void EngineContract::expect_correct(const PointSet& a, const PointSet* b, const JoinParams& p) {
  joined_ = true;
  if (b && !engine().capabilities().ab_join) return expect_ab_join_refused(engine(), a, *b, p);
  const std::vector<Pair> expected = oracle_pairs(a, b, p.eps);
  const VerifyReport report = compare_pairs(run_pairs(engine(), a, b, p), expected);
  if (engine().capabilities().exact) {
    EXPECT_MATCHES_ORACLE(report);
    return;
  }
  EXPECT_TRUE(report.extra.empty() && report.duplicates == 0) << report.summary();
  // The recall floor, on self-joins with pairs enough for a fraction to mean something and selective.
  // Not on A-join-B: the contract's B has clusters of its own, away from A's, and a B cluster joins
  // only the partition of A's centroid nearest it, which need not be the A cluster within eps (one
  // draw of 5-D clusters gave gpu-kmeans-approx a recall of 16 %).
  const double all_pairs = double(a.size()) * double(a.size() - 1) / 2;
  if (!b && expected.size() >= kRecallFloorPairs && double(expected.size()) <= kSelectiveShare * all_pairs)
    EXPECT_GE(1 - double(report.missing.size()) / double(expected.size()), kRecallFloor)
        << GetParam().engine << ": " << report.missing.size() << " of " << expected.size() << " pairs missed";
}

namespace {
// Fewer points for higher d keeps the O(n^2 d) oracle quick.
std::size_t points_for(std::size_t d) { return d <= 3 ? 2000 : d <= 8 ? 1000 : 400; }

// Values rounded to a grid of `step` (millimetres, say), as surveyed coordinates are written.
PointSet rounded(PointSet points, double step) {
  for (std::size_t i = 0; i < points.size() * points.dims(); ++i)
    points.data()[i] = std::round(points.data()[i] / step) * step;
  return points;
}
}  // namespace

TEST_P(EngineContract, RandomSelfJoinsAcrossDimensions) {
  for (std::size_t d : {1, 2, 3, 5, 8, 16, 33, 64}) {
    if (!supports(d)) continue;
    for (Distribution kind : {Distribution::Uniform, Distribution::Clusters}) {
      const std::uint64_t seed = test_seed() + d * 10 + std::uint64_t(kind);
      SCOPED_TRACE("seed " + std::to_string(seed) + ", d " + std::to_string(d) + ", " + to_string(kind));
      const PointSet points = random_points(kind, points_for(d), d, seed, 0, 1, 5, 0.05);
      // From "a few neighbours" to "most pairs" (the diameter of [0,1]^d is sqrt(d)).
      for (double scale : {0.03, 0.1, 0.3}) expect_correct(points, nullptr, params(scale * std::sqrt(double(d))));
    }
  }
}

TEST_P(EngineContract, RandomABJoinsAcrossDimensions) {
  if (!engine().capabilities().ab_join) {
    const PointSet a = random_points(Distribution::Uniform, 100, 2, test_seed(), 0, 1, 5, 0.05);
    return expect_ab_join_refused(engine(), a, a, params(0.1));
  }
  for (std::size_t d : {1, 2, 3, 5, 8, 16, 33, 64}) {
    if (!supports(d)) continue;
    for (Distribution kind : {Distribution::Uniform, Distribution::Clusters}) {
      const std::uint64_t seed = test_seed() + 1000 + d * 10 + std::uint64_t(kind);
      SCOPED_TRACE("seed " + std::to_string(seed) + ", d " + std::to_string(d) + ", " + to_string(kind));
      const PointSet a = random_points(kind, points_for(d), d, seed, 0, 1, 5, 0.05);
      // B reaches beyond A's bounding box, so some queries fall outside any index built on A.
      const PointSet b = random_points(kind, points_for(d) / 2, d, seed + 1, -0.5, 1.5, 5, 0.05);
      for (double scale : {0.03, 0.1, 0.3}) expect_correct(a, &b, params(scale * std::sqrt(double(d))));
    }
  }
}

TEST_P(EngineContract, LargeLowDimensionalJoin) {
  const std::uint64_t seed = test_seed() + 7;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 20000, 2, seed, 0, 1, 8, 0.05);
  expect_correct(points, nullptr, params(0.01));
}

TEST_P(EngineContract, EpsZeroAndBeyondTheDiameter) {
  const std::uint64_t seed = test_seed() + 11;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 8}) {
    PointSet points = random_points(Distribution::Uniform, 400, d, seed + d);
    // Every fourth point repeats an earlier one, so eps = 0 has pairs to find.
    for (std::size_t i = 4; i < points.size(); i += 4) std::copy_n(points.point(i / 4), d, points.point(i));
    expect_correct(points, nullptr, params(0.0));
    expect_correct(points, nullptr, params(3.0 * std::sqrt(double(d))));
    const PointSet b = random_points(Distribution::Uniform, 100, d, seed + 50 + d);
    expect_correct(points, &points, params(0.0));
    expect_correct(points, &b, params(3.0 * std::sqrt(double(d))));
  }
}

namespace {
// The pairs at distance 0 counted without any distance: rows grouped by value (-0.0 == 0.0 there).
std::size_t equal_row_pairs(const PointSet& points) {
  std::map<std::vector<double>, std::size_t> groups;
  for (std::size_t i = 0; i < points.size(); ++i)
    ++groups[std::vector<double>(points.point(i), points.point(i) + points.dims())];
  std::size_t pairs = 0;
  for (const auto& [row, count] : groups) pairs += count * (count - 1) / 2;
  return pairs;
}

// Random rows near `offset`, with exact copies of earlier rows (chains of them: groups of 2 to 4),
// rows one ulp off an earlier row in one dimension (not pairs at eps = 0), and a row whose first
// coordinate is -0.0 where its copy's is 0.0 (a pair).
PointSet planted_duplicates(std::size_t n, std::size_t d, std::uint64_t seed, double offset) {
  PointSet points = random_points(Distribution::Uniform, n, d, seed, offset - 1000, offset + 1000);
  points.point(2)[0] = 0.0;
  std::copy_n(points.point(2), d, points.point(3));
  points.point(3)[0] = -0.0;
  for (std::size_t i = 5; i < n; ++i) {
    if (i % 5 == 0) std::copy_n(points.point(i / 5), d, points.point(i));
    if (i % 7 != 0 || i % 5 == 0) continue;
    std::copy_n(points.point(i / 7), d, points.point(i));
    double& x = points.point(i)[i % d];
    x = std::nextafter(x, i % 2 ? INFINITY : -INFINITY);
  }
  return points;
}
}  // namespace

// eps = 0 joins the pairs at distance 0 exactly (core/join/eps_rule.hpp), as SciPy's query_pairs(r=0):
// copies are pairs, one ulp apart is not, -0.0 and 0.0 are, also where one ulp is 0.125 (offset 1e15)
// and where the frame's search radius is far below the data's float32 resolution.
TEST_P(EngineContract, EpsZeroJoinsTheExactDuplicatesOnly) {
  const std::uint64_t seed = test_seed() + 19;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {1, 3, 16}) {
    if (!supports(d)) continue;
    for (double offset : {0.0, 1e15, -1e15}) {
      SCOPED_TRACE("d " + std::to_string(d) + ", offset " + std::to_string(offset));
      const PointSet points = planted_duplicates(400, d, seed + d, offset);
      const std::size_t duplicates = equal_row_pairs(points);
      ASSERT_GE(duplicates, 80u);  // the planted copies, whatever the draw
      ASSERT_EQ(oracle_pairs(points, nullptr, 0.0).size(), duplicates);
      expect_correct(points, nullptr, params(0.0));
      // B: copies of some rows of A and rows one ulp off others.
      const PointSet b = planted_duplicates(150, d, seed + d + 1, offset);
      PointSet queries(b.size(), d);
      for (std::size_t i = 0; i < b.size(); ++i)
        std::copy_n((i % 3 == 0 ? points : b).point(i % 3 == 0 ? i * 2 : i), d, queries.point(i));
      expect_correct(points, &queries, params(0.0));
    }
  }
}

TEST_P(EngineContract, TinyAndDegenerateInputs) {
  for (double eps : {0.0, 0.5, 2.0}) {
    SCOPED_TRACE("eps " + std::to_string(eps));
    expect_correct(PointSet(0, 3), nullptr, params(eps));
    expect_correct(PointSet(1, 3), nullptr, params(eps));
    expect_correct(PointSet(2, 1, {0.0, 1.0}), nullptr, params(eps));
    expect_correct(PointSet(2, 2, {0.0, 0.0, 0.0, 0.0}), nullptr, params(eps));
    const PointSet none(0, 2), three(3, 2, {0.0, 0.0, 1.0, 1.0, 2.0, 0.0});
    expect_correct(three, &three, params(eps));
    expect_correct(none, &three, params(eps));
    expect_correct(three, &none, params(eps));
  }
}

TEST_P(EngineContract, AllPointsIdentical) {
  const PointSet same(300, 5, Coordinates<double>(1500, -3.25));
  for (double eps : {0.0, 1.0}) {
    PairListSink sink;
    RunControl control;
    run_engine(engine(), {&same, nullptr}, params(eps), sink, control);
    if (engine().capabilities().exact) EXPECT_EQ(sink.count(), 300u * 299u / 2);
    expect_correct(same, nullptr, params(eps));
  }
}

TEST_P(EngineContract, CollinearPoints) {
  const std::uint64_t seed = test_seed() + 13;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet line = random_points(Distribution::Uniform, 1000, 1, seed);
  for (std::size_t d : {3, 16}) {
    if (!supports(d)) continue;
    PointSet points(line.size(), d);  // all on one line through the space: x, 2x, 3x, ...
    for (std::size_t i = 0; i < line.size(); ++i)
      for (std::size_t k = 0; k < d; ++k) points.point(i)[k] = line.point(i)[0] * double(k + 1);
    expect_correct(points, nullptr, params(0.01 * std::sqrt(double(d))));
  }
}

TEST_P(EngineContract, LatticeExactlyEpsApart) {
  for (std::size_t d : {1, 2, 3}) {
    const PointSet lattice = lattice_points(d == 1 ? 200 : d == 2 ? 30 : 10, d, 0.5);
    expect_correct(lattice, nullptr, params(0.5));
    expect_correct(lattice, &lattice, params(0.5));
    expect_correct(lattice, nullptr, params(0.5 * std::sqrt(2.0)));
  }
}

TEST_P(EngineContract, HugeAndNegativeOffsets) {
  const std::uint64_t seed = test_seed() + 17;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (double offset : {1e7, -1e7}) {
    // Integer coordinates: many pairs exactly eps apart, far from the origin.
    const PointSet a = shifted(rounded(random_points(Distribution::Uniform, 1500, 3, seed, 0, 40), 1), {offset});
    const PointSet b = shifted(rounded(random_points(Distribution::Uniform, 500, 3, seed + 1, 0, 40), 1), {offset});
    expect_correct(a, nullptr, params(3.0));
    expect_correct(a, &b, params(3.0));
  }
}

TEST_P(EngineContract, UtmMetresWithMillimetres) {
  // x near 500 km, y near 4500 km with millimetre values: float32 alone resolves only 0.5 m there.
  const std::uint64_t seed = test_seed() + 31;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<double> utm{500000.0, 4500000.0};
  const PointSet a = shifted(rounded(random_points(Distribution::Uniform, 2000, 2, seed, 0, 50), 1e-3), utm);
  for (double eps : {0.5, 0.05, 1e-3}) expect_correct(a, nullptr, params(eps));
  // A lattice of 0.1 m steps: pairs exactly 0.5 m apart (0.3, 0.4) and ties in float64 rounding.
  const PointSet lattice = shifted(lattice_points(40, 2, 0.1), utm);
  expect_correct(lattice, nullptr, params(0.5));
  // B offset differently from A (a second survey overlapping the first).
  const PointSet b =
      shifted(rounded(random_points(Distribution::Uniform, 800, 2, seed + 1, 0, 50), 1e-3), {500025.0, 4500010.0});
  expect_correct(a, &b, params(0.5));
  expect_correct(b, &a, params(0.5));
}

TEST_P(EngineContract, EarthCentredMetres) {
  const std::uint64_t seed = test_seed() + 37;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = shifted(rounded(random_points(Distribution::Clusters, 2000, 3, seed, 0, 2000, 20, 30), 1e-3),
                                  {4.5e6, 6.1e5, 4.4e6});
  for (double eps : {5.0, 0.5}) expect_correct(points, nullptr, params(eps));
}

// Far outliers (at +-1e7, in pairs within eps, and at 1e15) among points in the unit cube, and a
// tail of points leading out of the cube: run_engine joins the outliers and the tail's end apart, in
// float64, and the tail's pairs straddle the two parts.
TEST_P(EngineContract, FarOutliersAndATail) {
  const std::uint64_t seed = test_seed() + 53;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3})
    for (bool huge : {false, true}) {
      SCOPED_TRACE("d = " + std::to_string(d) + (huge ? " with a point at 1e15" : ""));
      const PointSet points = with_tail(with_outliers(3000, d, seed + d, 6, huge), 20, 0.06);
      const PointSet other = with_outliers(500, d, seed + 10 + d, 4, huge);
      expect_correct(points, nullptr, params(0.1));
      expect_correct(points, &other, params(0.1));
      expect_correct(other, &points, params(0.1));
    }
}

TEST_P(EngineContract, NearTiesAroundEps) {
  // Pairs eps (1 + t) apart, |t| <= 1e-7, near the origin and far from it, at low and high d.
  const std::uint64_t seed = test_seed() + 41;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 5, 16, 64, 128}) {
    if (!supports(d)) continue;
    SCOPED_TRACE("d " + std::to_string(d));
    for (double low : {-3.0, 1000.0})
      for (double eps : {0.75, 0.7071})
        expect_correct(pairs_near_eps(d <= 5 ? 300 : 100, d, eps, 1e-7, low, seed + d), nullptr, params(eps));
  }
}

// Pairs whose float32 distance is off from the true one by most of the frame's rounding bound, just
// within eps (rounding apart) and just beyond it (rounding together): halving the bound
// (core/frame/join_frame.cpp) loses the first kind and adds the second, in every one of these sets.
TEST_P(EngineContract, FrameRoundingNeedsItsWholeBound) {
  const std::uint64_t seed = test_seed() + 67;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {1, 2, 3, 5, 16, 64, 128}) {
    if (!supports(d)) continue;
    for (const MarginSet& set : {pairs_rounding_apart(d == 1 ? 60 : 40, d, seed + d),
                                 pairs_rounding_together(d == 1 ? 60 : 40, d, seed + 500 + d)}) {
      SCOPED_TRACE(set.name + ", eps " + std::to_string(set.eps));
      expect_correct(set.points, nullptr, params(set.eps));
      expect_correct(set.points, &set.points, params(set.eps));
    }
  }
}

// Pairs rounding apart in two mirrored clusters, eps 1.7e5 / sqrt(d) times below the extent
// (margin_sets.hpp): an index that rotates the points and rounds the rotated values to float32
// (gpu-boehm) keeps these pairs only by allowing for that rounding. 1 ms to 10 ms per engine here.
TEST_P(EngineContract, RotatedPairsRoundingApart) {
  const std::uint64_t seed = test_seed() + 71;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3, 24, 128}) {
    if (!supports(d)) continue;
    const MarginSet set = pairs_rounding_apart_on_both_sides(60, d, seed + d);
    SCOPED_TRACE(set.name + ", eps " + std::to_string(set.eps));
    expect_correct(set.points, nullptr, params(set.eps));
    expect_correct(set.points, &set.points, params(set.eps));
  }
}

// A far point eps (1 - 2^-12) beyond an inlier on the face of the middle box (core/frame/far_points.cpp):
// the far point must be joined with every point, since its separation from the box is below eps.
TEST_P(EngineContract, FarPointBesideTheMiddleBoxFace) {
  const std::uint64_t seed = test_seed() + 73;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {2, 3, 16}) {
    if (!supports(d)) continue;
    const MarginSet set = far_point_beside_the_face(1000, d, seed + d);
    SCOPED_TRACE(set.name);
    expect_correct(set.points, nullptr, params(set.eps));
    expect_correct(set.points, &set.points, params(set.eps));
  }
}

// Ties and offsets at high d: integer coordinates with pairs exactly eps = 3 apart (nine coordinates
// differing by 1) and just not, at the origin and 1e7 away on either side, self-join and A join B.
TEST_P(EngineContract, TiesAndOffsetsAtHighDimensions) {
  const std::uint64_t seed = test_seed() + 79;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {16, 64, 128}) {
    if (!supports(d)) continue;
    for (double offset : {0.0, 1e7, -1e7}) {
      const MarginSet set = integer_ties(150, d, offset, seed + d);
      SCOPED_TRACE(set.name);
      const PointSet other = integer_ties(60, d, offset, seed + 1000 + d).points;
      expect_correct(set.points, nullptr, params(set.eps));
      expect_correct(set.points, &other, params(set.eps));
      if (engine().capabilities().exact)
        EXPECT_EQ(count_pairs(engine(), set.points, nullptr, params(set.eps)),
                  oracle_pairs(set.points, nullptr, set.eps).size());
    }
  }
}

TEST_P(EngineContract, EpsAtTheLimitsOfFloat32) {
  // Tiny: points 1e-30 apart (float32 would make them equal or subnormal), eps 0 and 1e-30.
  PointSet tiny(300, 2);
  for (std::size_t i = 0; i < tiny.size(); ++i) {
    tiny.point(i)[0] = 1e-30 * double(i % 17);
    tiny.point(i)[1] = 1e-30 * double(i % 5);
  }
  for (double eps : {0.0, 1e-30, 1.5e-30}) expect_correct(tiny, nullptr, params(eps));
  // Huge: coordinates near 1e20 apart, eps^2 beyond float32's range.
  PointSet huge(300, 3);
  for (std::size_t i = 0; i < huge.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) huge.point(i)[k] = 1e20 * double((i + k) % 7) + 1e30;
  for (double eps : {1e20, 2e20, 1e21}) expect_correct(huge, nullptr, params(eps));
  // eps far below what float32 resolves across the extent: every candidate needs the float64 test.
  PointSet spread = random_points(Distribution::Uniform, 500, 2, test_seed() + 43, 0, 1);
  spread.point(0)[0] = 1e9;
  for (std::size_t i = 1; i < 100; ++i) std::copy_n(spread.point(i + 100), 2, spread.point(i));
  spread.point(7)[1] += 1e-12;
  expect_correct(spread, nullptr, params(1e-12));
}

// Against the independent reference (tests/reference): lattices exactly eps apart, pairs within 1e-7
// of eps, UTM offsets, spacings of 1e-30 and 1e20, subnormal coordinates, eps from 5e-324 to 1e308.
TEST_P(EngineContract, TieHeavySetsMatchTheReference) {
  const std::uint64_t seed = test_seed() + 59;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const TieSet& set : tie_heavy_sets(seed)) {
    if (!supports(set.points.dims())) continue;
    for (double eps : set.eps) {
      SCOPED_TRACE(set.name + ", eps " + std::to_string(eps));
      expect_correct(set.points, nullptr, params(eps));
      if (engine().capabilities().exact)
        EXPECT_EQ(count_pairs(engine(), set.points, nullptr, params(eps)),
                  oracle_pairs(set.points, nullptr, eps).size());
    }
    SCOPED_TRACE(set.name + " joined with itself");
    expect_correct(set.points, &set.points, params(set.eps.front()));
  }
}

// Five points at least 0.2 apart and a repeat of one: only the repeat pairs at eps up to 1e-300 (a
// subnormal eps once returned every pair), all 15 pairs at 1e300 and 1e308.
TEST_P(EngineContract, EpsOverTheWholeDoubleRange) {
  PointSet six(6, 2);
  const PointSet five = random_points(Distribution::Uniform, 5, 2, 1);
  std::copy_n(five.data(), 10, six.data());
  std::copy_n(five.point(2), 2, six.point(5));
  for (double eps : extreme_eps()) {
    SCOPED_TRACE("eps " + std::to_string(eps));
    expect_correct(six, nullptr, params(eps));
    if (engine().capabilities().exact) EXPECT_EQ(count_pairs(engine(), six, nullptr, params(eps)), eps < 1 ? 1u : 15u);
  }
}

TEST_P(EngineContract, CountOnlyEqualsPairList) {
  const std::uint64_t seed = test_seed() + 19;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 2000, 3, seed, 0, 1, 5, 0.05);
  PairListSink list;
  RunControl control;
  run_engine(engine(), {&points, nullptr}, params(0.05), list, control);
  EXPECT_GT(list.count(), 0u);
  EXPECT_EQ(count_pairs(engine(), points, nullptr, params(0.05)), list.pairs().size());
  if (engine().capabilities().exact) EXPECT_EQ(list.pairs().size(), oracle_pairs(points, nullptr, 0.05).size());
}

// The structures for the views come only where asked (JoinParams::structures, off on the command
// line): the k-means engines give their partitions and the grid engines their grid when asked, no
// engine gives any when not, and the pairs are the same either way.
TEST_P(EngineContract, StructuresOnlyWhenAsked) {
  const std::uint64_t seed = test_seed() + 23;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Clusters, 2000, 3, seed, 0, 1, 5, 0.05);
  JoinParams asked = params(0.05), unasked = params(0.05);
  unasked.structures = false;
  PairListSink with, without;
  RunControl control;
  const RunResult shown = run_engine(engine(), {&points, nullptr}, asked, with, control);
  const RunResult bare = run_engine(engine(), {&points, nullptr}, unasked, without, control);
  EXPECT_FALSE(bare.partitions || bare.grid);
  EXPECT_EQ(with.sorted_pairs(), without.sorted_pairs());
  const std::string name = GetParam().engine;
  if (name.find("kmeans") != std::string::npos) EXPECT_TRUE(shown.partitions);
  if (name.find("grid") != std::string::npos) EXPECT_TRUE(shown.grid);
}

TEST_P(EngineContract, ProgressIsMonotoneAndFinishes) {
  std::vector<double> seen;
  RunControl control([&](double fraction, const std::string&) { seen.push_back(fraction); });
  const PointSet points = random_points(Distribution::Uniform, 5000, 3, test_seed() + 23);
  CountSink sink;
  run_engine(engine(), {&points, nullptr}, params(0.05), sink, control);
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0);
}

// The product honours cancel within 100 ms; sanitizer builds run several times slower, so they get more.
#ifdef SIMJOIN_SANITIZED
constexpr double kCancelBoundSeconds = 0.5;
#else
constexpr double kCancelBoundSeconds = 0.1;
#endif

// A cancel requested 20 ms into a run stops it within the bound. Where the run is over by then (a GPU
// counts the 100,000 points' 6e8 pairs in less), the points are four times as many, up to 6.4 million.
TEST_P(EngineContract, CancelStopsWithin100Milliseconds) {
  for (std::size_t n = 100'000; n <= 6'400'000; n *= 4) {
    SCOPED_TRACE(std::to_string(n) + " points");
    const PointSet points = random_points(Distribution::Uniform, n, 3, test_seed() + 29);
    CountSink sink;
    const std::optional<double> latency = seconds_to_cancel(std::chrono::milliseconds(20), [&](RunControl& control) {
      run_engine(engine(), {&points, nullptr}, params(0.3), sink, control);
    });
    if (!latency) continue;
    EXPECT_LT(*latency, kCancelBoundSeconds);
    return;
  }
  FAIL() << "every run finished before the cancel 20 ms into it";
}

// Cancelled from the progress callback at its first call (before any work), half-way and late, then
// the same engine object on other data, self-join and A join B: exactly the oracle's pairs.
TEST_P(EngineContract, CancelAtAnyPointThenRerun) {
  const std::uint64_t seed = test_seed() + 47;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet first = random_points(Distribution::Uniform, 20000, 3, seed);
  for (double after : {-1.0, 0.5, 0.8}) {
    SCOPED_TRACE("cancelled at the first progress call past " + std::to_string(after));
    PairListSink discarded;
    cancel_past(after, [&](RunControl& control) {
      run_engine(engine(), {&first, nullptr}, params(0.05), discarded, control);
    });
    const PointSet second = random_points(Distribution::Clusters, 3000, 3, seed + 1, 0, 1, 5, 0.05);
    expect_correct(second, nullptr, params(0.05));
    const PointSet b = random_points(Distribution::Uniform, 1500, 3, seed + 2, -0.5, 1.5);
    expect_correct(second, &b, params(0.05));
  }
}

}  // namespace simjoin::testing
