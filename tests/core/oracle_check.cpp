#include "tests/core/oracle_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "core/run/run_engine.hpp"
#include "tests/reference/reference_join.hpp"

namespace simjoin::testing {

std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("SIMJOIN_TEST_SEED")) return std::uint64_t(std::strtoull(env, nullptr, 10));
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ device();
  }();
  return seed;
}

PointSet random_points(Distribution kind, std::size_t n, std::size_t dims, std::uint64_t seed, double low, double high,
                       std::size_t clusters, double sigma) {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.dims = dims;
  spec.low = low;
  spec.high = high;
  spec.clusters = clusters;
  spec.sigma = sigma;
  spec.seed = seed;
  return generate(spec);
}

PointSet lattice_points(std::size_t per_side, std::size_t dims, double spacing) {
  std::size_t n = 1;
  for (std::size_t k = 0; k < dims; ++k) n *= per_side;
  PointSet points(n, dims);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t rest = i;
    for (std::size_t k = 0; k < dims; ++k) {
      points.point(i)[k] = double(rest % per_side) * spacing;
      rest /= per_side;
    }
  }
  return points;
}

PointSet pairs_near_eps(std::size_t pairs, std::size_t dims, double eps, double spread, double low,
                        std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> position(low, low + 6), off(-spread, spread);
  std::normal_distribution<double> direction;
  PointSet points(2 * pairs, dims);
  for (std::size_t p = 0; p < pairs; ++p) {
    std::vector<double> u(dims);
    double norm = 0;
    for (double& x : u) norm += (x = direction(random)) * x;
    const double length = eps * (1 + off(random)) / std::sqrt(norm);
    for (std::size_t k = 0; k < dims; ++k) {
      const double x = position(random);
      points.point(2 * p)[k] = x;
      points.point(2 * p + 1)[k] = x + u[k] * length;
    }
  }
  return points;
}

std::vector<Pair> oracle_pairs(const PointSet& a, const PointSet* b, double eps) {
  const std::vector<reference::Pair> found =
      b ? reference::join(a.data(), a.size(), b->data(), b->size(), a.dims(), eps)
        : reference::self_join(a.data(), a.size(), a.dims(), eps);
  std::vector<Pair> pairs;
  pairs.reserve(found.size());
  for (const auto& [i, j] : found) pairs.push_back({std::uint32_t(i), std::uint32_t(j)});
  return pairs;
}

VerifyReport compare_with_oracle(std::vector<Pair> pairs, const PointSet& a, const PointSet* b, double eps) {
  return compare_pairs(std::move(pairs), oracle_pairs(a, b, eps));
}

std::vector<Pair> run_pairs(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params,
                            RunResult* result) {
  PairListSink sink;
  RunControl control;
  RunResult run = run_engine(engine, {&a, b}, params, sink, control);
  if (result) *result = std::move(run);
  return std::move(sink.sorted_pairs());
}

VerifyReport check_engine(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params,
                          RunResult* result) {
  return compare_with_oracle(run_pairs(engine, a, b, params, result), a, b, params.eps);
}

void expect_ab_join_refused(Engine& engine, const PointSet& a, const PointSet& b, const JoinParams& params) {
  try {
    run_pairs(engine, a, &b, params);
    ADD_FAILURE() << engine.name() << " ran an A-join-B, which its capabilities say it has not";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Usage) << error.what();
    EXPECT_NE(std::string(error.what()).find("A-join-B"), std::string::npos) << error.what();
  }
}

std::uint64_t count_pairs(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params) {
  CountSink sink;
  RunControl control;
  run_engine(engine, {&a, b}, params, sink, control);
  return sink.count();
}

bool note_begins(const RunStats& stats, const std::string& start) {
  return std::any_of(stats.notes.begin(), stats.notes.end(),
                     [&](const std::string& note) { return note.rfind(start, 0) == 0; });
}

bool note_mentions(const RunStats& stats, const std::string& text) {
  return std::any_of(stats.notes.begin(), stats.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace simjoin::testing
