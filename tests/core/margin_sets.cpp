#include "tests/core/margin_sets.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace simjoin::testing {

namespace {
constexpr double kUlp = 0x1p-22;        // float32's spacing in [2, 4)
constexpr double kHalfExtent = 2.02;    // just above 2
constexpr double kWholeUlps = 4194;     // m: a pair's difference per dimension is (m + f) ulp
constexpr double kEpsOffTheTie = 1e-9;  // eps against the true distance, relative

// The two corners, then the pairs. A pair's first coordinate x is a float32 value g moved by phi ulp,
// phi in [0.38, 0.47]: x rounds to g (phi < 0.5), and x + (m + f) ulp rounds past its nearest
// multiple when apart (phi + f > 0.5) and back to g + m ulp when together (f - phi < 0.5).
PointSet rounding_pairs(std::size_t pairs, std::size_t d, double fraction, bool apart, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> start(2.01, 2.015), place(0.38, 0.47);
  PointSet points(2 * pairs + 2, d);
  for (std::size_t k = 0; k < d; ++k) {
    points.point(0)[k] = -kHalfExtent;
    points.point(1)[k] = kHalfExtent;
  }
  const double step = (kWholeUlps + fraction) * kUlp;
  for (std::size_t p = 0; p < pairs; ++p)
    for (std::size_t k = 0; k < d; ++k) {
      const double grid = double(float(start(random)));
      const double phi = place(random) * kUlp;
      const double x = apart ? grid + phi : grid - phi;
      points.point(2 + 2 * p)[k] = x;
      points.point(3 + 2 * p)[k] = x + step;
    }
  return points;
}

double pair_distance(std::size_t d, double fraction) { return std::sqrt(double(d)) * (kWholeUlps + fraction) * kUlp; }
}  // namespace

MarginSet pairs_rounding_apart(std::size_t pairs, std::size_t d, std::uint64_t seed) {
  return {"pairs rounding apart, " + std::to_string(d) + "-D", rounding_pairs(pairs, d, 0.15, true, seed),
          pair_distance(d, 0.15) * (1 + kEpsOffTheTie)};
}

MarginSet pairs_rounding_together(std::size_t pairs, std::size_t d, std::uint64_t seed) {
  return {"pairs rounding together, " + std::to_string(d) + "-D", rounding_pairs(pairs, d, 0.85, false, seed),
          pair_distance(d, 0.85) * (1 - kEpsOffTheTie)};
}

MarginSet far_point_beside_the_face(std::size_t n, std::size_t d, std::uint64_t seed) {
  const double eps = 0.1;
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> inside(0, 1);
  PointSet points(n + 3, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < d; ++k) {
      const std::size_t block = (i + 7 * k) % 20;  // a twentieth at 0, a twentieth at 1
      points.point(i)[k] = block == 0 ? 0.0 : block == 1 ? 1.0 : inside(random);
    }
  for (std::size_t k = 0; k < d; ++k) {
    points.point(n)[k] = points.point(n + 1)[k] = k == 0 ? 2.0 : 0.5;
    points.point(n + 2)[k] = 1e7;
  }
  points.point(n + 1)[0] = 2 + eps * (1 - 0x1p-12);
  return {"a far point beside the middle box's face, " + std::to_string(d) + "-D", std::move(points), eps};
}

MarginSet integer_ties(std::size_t pairs, std::size_t d, double offset, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> coordinate(1, 39), differing(8, 10);
  PointSet points(2 * pairs, d);
  std::vector<std::size_t> order(d);
  for (std::size_t p = 0; p < pairs; ++p) {
    for (std::size_t k = 0; k < d; ++k) points.point(2 * p)[k] = points.point(2 * p + 1)[k] = coordinate(random);
    for (std::size_t k = 0; k < d; ++k) order[k] = k;
    std::shuffle(order.begin(), order.end(), random);
    const std::size_t count = std::min<std::size_t>(d, std::size_t(differing(random)));
    for (std::size_t c = 0; c < count; ++c) points.point(2 * p + 1)[order[c]] += random() & 1 ? 1.0 : -1.0;
  }
  for (std::size_t i = 0; i < points.size() * d; ++i) points.data()[i] += offset;
  return {"integer ties at offset " + std::to_string(offset) + ", " + std::to_string(d) + "-D", std::move(points), 3.0};
}

}  // namespace simjoin::testing
