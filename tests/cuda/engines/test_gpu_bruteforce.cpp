// gpu-bruteforce's tensor-core path (d >= 5): its candidates are decided by the exact test, so its
// pairs must equal the float64 oracle's, also where many pairs lie within a rounding error of eps and
// where rows are staged a chunk of dimensions at a time; and it must give way to CUDA cores where the
// points' norms would make its rounding band too wide, or let through too many candidates to re-check
// (a far point is set apart instead).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/detail/chunk_major.hpp"
#include "cuda/detail/tensor_tile_layout.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::testing {
namespace {

Engine& bruteforce() { return gpu_engine("gpu-bruteforce"); }

// The dimensions the long rows' form stages at a time, as its note says; 0 where it did not run.
unsigned rows_staged(const RunResult& result) {
  for (const std::string& note : result.stats.notes)
    if (const auto at = note.find("rows staged "); at != std::string::npos)
      return unsigned(std::stoul(note.substr(at + 12)));
  return 0;
}

// The translated copies' bytes: a 32-bit word (split operands) or a half (plain) per padded dimension, and
// a norm per point; the long rows' form lays each set out chunk by chunk, rows at the staged pitch and up
// to whole tiles (chunk_major.hpp).
std::size_t operand_bytes(const RunResult& result, const PointSet& a, const PointSet* b) {
  const unsigned stride = unsigned((a.dims() + 15) / 16 * 16), chunk = rows_staged(result);
  const gpu::Operands operands =
      note_mentions(result.stats, "from plain FP16") ? gpu::Operands::Plain : gpu::Operands::Split;
  const auto set_bytes = [&](std::size_t n) {
    const std::size_t words = chunk ? (stride + chunk - 1) / chunk * gpu::whole_tiles_rows(n, gpu::norm_tile::kTile) *
                                          gpu::norm_tile::row_words(chunk, operands)
                                    : n * gpu::packed_words(stride, operands);
    return (words + n) * sizeof(float);
  };
  return set_bytes(a.size()) + (b ? set_bytes(b->size()) : 0);
}

class GpuBruteForceTensor : public ::testing::Test {
 protected:
  void SetUp() override { SIMJOIN_SKIP_WITHOUT_GPU(); }
  JoinParams params(double eps) {
    JoinParams p;
    p.eps = eps;
    return p;
  }
  // Runs the engine and expects exactly the oracle's pairs, on the path named; returns the run's result.
  RunResult expect_oracle_pairs(const PointSet& a, const PointSet* b, double eps, const std::string& path) {
    RunResult result;
    const std::vector<Pair> got = run_pairs(bruteforce(), a, b, params(eps), &result);
    EXPECT_TRUE(note_begins(result.stats, path)) << "expected the path " << path;
    EXPECT_EQ(result.stats.extra_bytes, path == "tensor cores" ? operand_bytes(result, a, b) : 0);
    EXPECT_MATCHES_ORACLE(compare_with_oracle(got, a, b, eps));
    return result;
  }
};

// n points, point i near centres[i % centres.size()]: the centre plus Gaussian noise of `sigma` per
// coordinate.
PointSet around_centres(std::size_t n, const std::vector<std::vector<double>>& centres, double sigma,
                        std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  const std::size_t d = centres.front().size();
  PointSet points(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < d; ++k) points.point(i)[k] = centres[i % centres.size()][k] + noise(random);
  return points;
}

// `count` directions uniform on the unit sphere of `d` dimensions.
std::vector<std::vector<double>> unit_vectors(std::size_t count, std::size_t d, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> vectors(count, std::vector<double>(d));
  for (std::vector<double>& v : vectors) {
    double norm = 0;
    for (double& x : v) norm += (x = normal(random)) * x;
    for (double& x : v) x /= std::sqrt(norm);
  }
  return vectors;
}

TEST_F(GpuBruteForceTensor, EqualsOracleAcrossDimensions) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {5, 8, 12, 16, 31, 33, 64, 100}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = random_points(Distribution::Clusters, 2500 + d, d, seed + d, -2, 3, 6, 0.2);
    // A few thousand pairs: the clusters' own pair distances concentrate near 0.2 sqrt(2 d).
    expect_oracle_pairs(points, nullptr, 0.2 * std::sqrt(2.0 * double(d)) * 0.8, "tensor cores");
  }
}

TEST_F(GpuBruteForceTensor, PairsWithinRoundingOfEps) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::size_t d : {8, 33}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const PointSet points = pairs_near_eps(1500, d, 0.5, 1e-6, -3, seed + d);
    expect_oracle_pairs(points, nullptr, 0.5, "tensor cores");
  }
  const PointSet lattice = lattice_points(5, 5, 0.25);  // 3125 points, many exactly 0.25 apart
  expect_oracle_pairs(lattice, nullptr, 0.25, "tensor cores");
  expect_oracle_pairs(lattice, nullptr, 0.25 * std::sqrt(2.0), "tensor cores");
}

// An eps wide against pairs_near_eps' spread of 6 a coordinate in `dims` dimensions (plain operands).
double wide_eps(std::size_t dims) { return 4.0 * std::sqrt(double(dims) / 8); }

// Ties within 1e-6 of wide_eps(dims) in `dims` dimensions.
PointSet ties_at(std::size_t pairs, std::size_t dims, std::uint64_t seed) {
  return pairs_near_eps(pairs, dims, wide_eps(dims), 1e-6, -3, seed);
}

// Where eps is wide against the points' spread, the band of plain FP16 operands (one product a term)
// is narrow at once: ties on a lattice, pairs within 10^-6 of eps either side (the accept side must
// not take those just outside), a translated cube, and A join B.
TEST_F(GpuBruteForceTensor, PlainOperandsWhereEpsIsWideAgainstTheSpread) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto expect_plain = [&](const PointSet& a, const PointSet* b, double eps) {
    EXPECT_TRUE(note_mentions(expect_oracle_pairs(a, b, eps, "tensor cores").stats, "from plain FP16"));
  };
  expect_plain(lattice_points(5, 5, 0.25), nullptr, 0.25);
  for (std::size_t d : {8, 33}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    expect_plain(ties_at(1500, d, seed + d), nullptr, wide_eps(d));
  }
  const PointSet cube = random_points(Distribution::Uniform, 2000, 16, seed, 1e5, 1e5 + 1);
  expect_plain(cube, nullptr, 1.0);
  const PointSet other = random_points(Distribution::Uniform, 700, 16, seed + 1, 1e5, 1e5 + 1);
  expect_plain(cube, &other, 1.0);
}

TEST_F(GpuBruteForceTensor, AJoinB) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet a = random_points(Distribution::Clusters, 1000, 12, seed, 0, 2, 4, 0.2);
  const PointSet b = random_points(Distribution::Uniform, 777, 12, seed + 1, 0, 2);
  expect_oracle_pairs(a, &b, 0.9, "tensor cores");
  expect_oracle_pairs(b, &a, 0.9, "tensor cores");
}

TEST_F(GpuBruteForceTensor, FarFromTheOriginIsTranslated) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PointSet points = random_points(Distribution::Uniform, 2000, 8, seed, 1e5, 1e5 + 2);
  expect_oracle_pairs(points, nullptr, 0.6, "tensor cores");
}

// `pairs` pairs of points at `radius` from `offset` (every coordinate) in random directions, the two of a
// pair eps (1 + delta) apart, |delta| <= 1e-6, along another random direction: at a radius many times
// eps the two are nearly parallel vectors of large norm, whose norm form is widest against eps.
PointSet parallel_pairs_at_eps(std::size_t pairs, std::size_t dims, double radius, double eps, double offset,
                               std::uint64_t seed) {
  const std::vector<std::vector<double>> directions = unit_vectors(2 * pairs, dims, seed);
  std::mt19937_64 random(seed + 1);
  std::uniform_real_distribution<double> delta(-1e-6, 1e-6);
  PointSet points(2 * pairs, dims);
  for (std::size_t p = 0; p < pairs; ++p) {
    const std::vector<double>&u = directions[2 * p], &w = directions[2 * p + 1];
    const double apart = eps * (1 + delta(random));
    for (std::size_t k = 0; k < dims; ++k) {
      points.point(2 * p)[k] = offset + radius * u[k];
      points.point(2 * p + 1)[k] = offset + radius * u[k] + apart * w[k];
    }
  }
  return points;
}

// Ties at eps on nearly parallel vectors of large norm, 3,000 points in 32 dimensions at eps 0.5, at the
// origin and 10^4 from it: at a radius of 4 eps plain operands' band is narrow at once (0.03 eps^2); at
// 16 eps it is about half of eps^2 and a sample admits plain operands (only a point's partner lies
// within it); at 40 eps plain ones' is 3 eps^2 and split ones' a fifth, admitted by sample. The accept
// side and the re-check then decide pairs 1e-6 either side of eps with the band at its widest.
TEST_F(GpuBruteForceTensor, NearlyParallelVectorsOfLargeNormAtEps) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const double eps = 0.5;
  for (const double offset : {0.0, 1e4}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const auto expect_operands = [&](double radius, const std::string& operands, bool sampled) {
      SCOPED_TRACE("radius " + std::to_string(radius / eps) + " eps");
      const PointSet points = parallel_pairs_at_eps(1500, 32, radius, eps, offset, seed);
      const RunResult result = expect_oracle_pairs(points, nullptr, eps, "tensor cores");
      EXPECT_TRUE(note_mentions(result.stats, "from " + operands + " FP16"));
      EXPECT_EQ(note_mentions(result.stats, "of sampled pairs through"), sampled);
      EXPECT_GT(result.stats.pairs, 300u);  // about half of the 1,500 ties lie inside
      EXPECT_LT(result.stats.pairs, 1200u);
    };
    expect_operands(4 * eps, "plain", false);
    expect_operands(16 * eps, "plain", true);
    expect_operands(40 * eps, "split", true);
  }
}

// A tenth of the points spread out to 10^4: the middle of the data (its 1st to 99th percentiles)
// reaches them, so none is set apart, and they widen the band past eps^2.
TEST_F(GpuBruteForceTensor, WideSpreadFallsBackToCudaCores) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = random_points(Distribution::Uniform, 1500, 8, seed, 0, 1);
  for (std::size_t i = 0; i < points.size(); i += 10) std::fill_n(points.point(i), 8, 1e4 + double(i));
  expect_oracle_pairs(points, nullptr, 0.5, "CUDA cores");
}

// One far point would widen the band past eps^2 as well: the frame step sets it apart
// (core/frame/far_points.hpp, for an engine whose speed depends on the spread), joins it in float64, and
// the rest stays on the tensor cores.
TEST_F(GpuBruteForceTensor, OneFarPointIsSetApart) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PointSet points = random_points(Distribution::Uniform, 1500, 8, seed, 0, 1);
  std::fill_n(points.point(0), 8, 1e4);
  points.point(1)[0] = 1e4 + 0.3;  // a pair of far points
  std::fill_n(points.point(1) + 1, 7, 1e4);
  std::fill_n(points.point(2), 8, 1.2);  // outside the cube, inside the bulk
  RunResult result;
  const std::vector<Pair> got = run_pairs(bruteforce(), points, nullptr, params(0.5), &result);
  EXPECT_TRUE(note_begins(result.stats, "tensor cores")) << "the far points took the tensor cores away";
  EXPECT_TRUE(note_mentions(result.stats, "far points (outliers) kept out"));
  EXPECT_MATCHES_ORACLE(compare_with_oracle(got, points, nullptr, 0.5));
}

// Tight clusters of unit vectors in 128 dimensions, the shape of embeddings, 3,000 points: norms of
// about 1 make the bands wide against eps^2, but only a row's own cluster lies within them, so a sample
// keeps the tensor cores. At eps 0.045 (600 clusters, 0.0028 a coordinate) split operands' band is about
// a quarter of eps^2 and plain ones' 1.2 eps^2, too wide: split operands. At eps 0.07 (1,000 clusters,
// 0.0044) plain ones' is about half of eps^2, and a row's own cluster (3 of 3,000 points) is under the
// 1/512 of the sampled pairs they may let through: plain operands. Pairs lie on both sides of eps.
TEST_F(GpuBruteForceTensor, ClustersOfUnitVectorsChooseOperandsBySample) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  struct Case {
    std::size_t centres;
    double sigma, eps;
    std::string operands;
  };
  for (const Case& c : {Case{600, 0.0028, 0.045, "split"}, Case{1000, 0.0044, 0.07, "plain"}}) {
    SCOPED_TRACE(c.operands + " operands expected");
    const PointSet points = around_centres(3000, unit_vectors(c.centres, 128, seed), c.sigma, seed + 1);
    const RunResult result = expect_oracle_pairs(points, nullptr, c.eps, "tensor cores");
    EXPECT_TRUE(note_mentions(result.stats, "of sampled pairs through")) << "expected a sample to decide";
    EXPECT_TRUE(note_mentions(result.stats, "from " + c.operands + " FP16"));
    const std::size_t per_cluster = 3000 / c.centres, cluster_pairs = c.centres * per_cluster * (per_cluster - 1) / 2;
    EXPECT_GT(result.stats.pairs, cluster_pairs / 10);
    EXPECT_LT(result.stats.pairs, cluster_pairs * 9 / 10);
  }
}

// Unit vectors as above at eps 0.05 (split operands' band about a fifth of eps^2, plain ones' about
// eps^2), but each of two clusters (at e1 and -e1) lies wholly within eps plus either band: half of all
// pairs would be candidates to re-check one by one, so the CUDA-core form is taken.
TEST_F(GpuBruteForceTensor, DenseCandidatesFallBackToCudaCores) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::vector<std::vector<double>> poles(2, std::vector<double>(128, 0.0));
  poles[0][0] = 1;
  poles[1][0] = -1;
  const RunResult result = expect_oracle_pairs(around_centres(2000, poles, 0.0031, seed), nullptr, 0.05, "CUDA cores");
  EXPECT_TRUE(note_mentions(result.stats, "too many to re-check")) << "expected a sample to decide";
}

// Points `parity` (0 or 1) of every two, the first `most` of them: one side of each pair of pairs_near_eps,
// whose A join B then holds those pairs.
PointSet every_other(const PointSet& points, std::size_t parity, std::size_t most = SIZE_MAX) {
  PointSet half(std::min(points.size() / 2, most), points.dims());
  for (std::size_t i = 0; i < half.size(); ++i) std::copy_n(points.point(2 * i + parity), points.dims(), half.point(i));
  return half;
}

// Whether `result`'s note says the tensor-core form ran on `operands` operands with tiles `staged`.
bool staged_as(const RunResult& result, const std::string& operands, const std::string& staged) {
  return note_mentions(result.stats, "from " + operands + " FP16 operands, " + staged + " staged");
}

// The spread a coordinate of tight clusters of unit vectors in `dims` dimensions whose pairs lie about
// eps = 0.05 apart, as at 0.0022 in 256 dimensions (distances grow as sqrt(d) times the spread).
double spread_at(unsigned dims) { return 0.0022 * std::sqrt(256.0 / dims); }

// Rows too long for three tiles of whole rows in shared memory (plain operands from 289 dimensions, split
// ones from 145) keep a row tile of whole rows and stage column tiles a chunk of dimensions at a time,
// up to 736 dimensions (plain) or 272 (split): ties at eps in 304 dimensions (7,000 points: 1,540 tile
// pairs, so that after its first launches of 1 to 256 pairs, pair_batches.cu, a launch holds more pairs
// than a GPU of 132 multiprocessors runs blocks, and blocks move from pair to pair, copying the next
// pair's first chunk and norms while they finish one), ties in 384 dimensions and their A join B, ties
// in 448 (three chunks, so that pairs start on either stage), and tight clusters of unit vectors in 256
// and 240 dimensions (four and three chunks), where only split operands' band fits; the clusters' spread
// a coordinate shrinks as 1 / sqrt(d), so that their pairs straddle eps alike.
TEST_F(GpuBruteForceTensor, LongRowsStreamColumnTiles) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto expect_streamed = [&](const PointSet& a, const PointSet* b, double eps, const std::string& operands) {
    const RunResult result = expect_oracle_pairs(a, b, eps, "tensor cores");
    EXPECT_TRUE(staged_as(result, operands, "column tiles")) << a.dims() << " dimensions";
  };
  expect_streamed(ties_at(3500, 304, seed + 3), nullptr, wide_eps(304), "plain");
  const PointSet ties = ties_at(1600, 384, seed);
  expect_streamed(ties, nullptr, wide_eps(384), "plain");
  const PointSet a = every_other(ties, 0), b = every_other(ties, 1);
  expect_streamed(a, &b, wide_eps(384), "plain");
  expect_streamed(ties_at(600, 448, seed + 4), nullptr, wide_eps(448), "plain");
  for (const unsigned dims : {256u, 240u}) {
    const PointSet clusters = around_centres(3000, unit_vectors(600, dims, seed), spread_at(dims), seed + 2);
    expect_streamed(clusters, nullptr, 0.05, "split");
  }
}

// Longer rows, whose row tile alone nearly fills a block, stage both tiles a chunk of dimensions at a
// time: ties at eps in 768 dimensions (7,000 points, blocks moving from pair to pair as above), in 960,
// tight clusters of unit vectors in 320 dimensions (split operands), and A join B of 500 and 300 points
// in 768, each set laid out chunk by chunk up to its own last tile, which neither fills.
TEST_F(GpuBruteForceTensor, LongerRowsAreStagedInChunks) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto expect_chunks = [&](const PointSet& a, double eps, const std::string& operands) {
    const RunResult result = expect_oracle_pairs(a, nullptr, eps, "tensor cores");
    EXPECT_TRUE(staged_as(result, operands, "rows")) << a.dims() << " dimensions";
  };
  expect_chunks(ties_at(3500, 768, seed + 3), wide_eps(768), "plain");
  expect_chunks(ties_at(300, 960, seed + 1), wide_eps(960), "plain");
  expect_chunks(around_centres(3000, unit_vectors(600, 320, seed), spread_at(320), seed + 2), 0.05, "split");
  const PointSet ties = ties_at(1000, 768, seed + 4);
  const PointSet a = every_other(ties, 0), b = every_other(ties, 1, 300);
  EXPECT_TRUE(staged_as(expect_oracle_pairs(a, &b, wide_eps(768), "tensor cores"), "plain", "rows"));
}

// Plain rows of 144 to 288 dimensions take tiles of whole rows at one block a multiprocessor (three tiles
// fit a block, not two blocks): ties at eps in 288 dimensions, the longest such rows, whose row tile and
// two column tiles nearly fill a block's shared memory.
TEST_F(GpuBruteForceTensor, LongestWholeRowsFitOneBlock) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const RunResult result = expect_oracle_pairs(ties_at(800, 288, seed), nullptr, wide_eps(288), "tensor cores");
  EXPECT_TRUE(note_mentions(result.stats, "from plain FP16 operands")) << "expected plain operands";
  EXPECT_FALSE(note_mentions(result.stats, "staged")) << "expected whole rows";
}

TEST_F(GpuBruteForceTensor, IdenticalPointsAndZeroEps) {
  PointSet same(600, 6);
  for (std::size_t i = 0; i < same.size(); ++i)
    for (std::size_t k = 0; k < 6; ++k) same.point(i)[k] = 1.5 + double(k);
  expect_oracle_pairs(same, nullptr, 0.0, "CUDA cores");  // no rounding band fits below eps^2 = 0
  expect_oracle_pairs(same, nullptr, 0.1, "tensor cores");
}

TEST_F(GpuBruteForceTensor, CountOnlyAgrees) {
  const PointSet points = random_points(Distribution::Clusters, 3000, 16, test_seed(), 0, 4, 5, 0.3);
  JoinParams p = params(1.2);
  EXPECT_EQ(count_pairs(bruteforce(), points, nullptr, p), run_pairs(bruteforce(), points, nullptr, p).size());
}

// A small case for compute-sanitizer, through an overflowing result buffer.
TEST_F(GpuBruteForceTensor, Sanitizer) {
  const PointSet a = random_points(Distribution::Clusters, 400, 9, test_seed(), 0, 2, 3, 0.2);
  const PointSet b = random_points(Distribution::Uniform, 150, 9, test_seed() + 1, 0, 2);
  JoinParams p = params(0.6);
  p.batch_bytes = 8 * 100;
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), a, nullptr, p));
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), a, &b, p));
  // A band that a sample must decide (candidate_share.cu): clustered 128-D unit vectors.
  const PointSet vectors = around_centres(300, unit_vectors(60, 128, test_seed()), 0.0031, test_seed() + 2);
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), vectors, nullptr, params(0.05)));
}

// The long rows' forms for compute-sanitizer: column tiles streamed (plain operands in 304 dimensions,
// split ones in 256, 3,000 points each) and both tiles chunked (plain in 768, 600 points; split in 320,
// 1,000). Each block takes one tile pair here (the first launches of pair_batches.cu hold fewer pairs
// than a GPU runs blocks); blocks that move from pair to pair are in LongRowsStreamColumnTiles and
// LongerRowsAreStagedInChunks, too large for the sanitizers.
TEST_F(GpuBruteForceTensor, SanitizerLongRows) {
  const std::uint64_t seed = test_seed();
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), ties_at(1500, 304, seed), nullptr, params(wide_eps(304))));
  const PointSet clusters = around_centres(3000, unit_vectors(600, 256, seed), 0.0022, seed + 1);
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), clusters, nullptr, params(0.05)));
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), ties_at(300, 768, seed + 2), nullptr, params(wide_eps(768))));
  const PointSet longer = around_centres(1000, unit_vectors(200, 320, seed), spread_at(320), seed + 3);
  EXPECT_MATCHES_ORACLE(check_engine(bruteforce(), longer, nullptr, params(0.05)));
}

}  // namespace
}  // namespace simjoin::testing
