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
// multiple when apart (phi + f > 0.5) and back to g + m ulp when together (f - phi < 0.5). With
// `mirrored`, every second pair is negated (it rounds the same way: float32 rounding is symmetric).
PointSet rounding_pairs(std::size_t pairs, std::size_t d, double whole, double fraction, bool apart, bool mirrored,
                        std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> start(2.01, 2.015), place(0.38, 0.47);
  PointSet points(2 * pairs + 2, d);
  for (std::size_t k = 0; k < d; ++k) {
    points.point(0)[k] = -kHalfExtent;
    points.point(1)[k] = kHalfExtent;
  }
  const double step = (whole + fraction) * kUlp;
  for (std::size_t p = 0; p < pairs; ++p) {
    const double sign = mirrored && p % 2 == 1 ? -1.0 : 1.0;
    for (std::size_t k = 0; k < d; ++k) {
      const double grid = double(float(start(random)));
      const double phi = place(random) * kUlp;
      const double x = apart ? grid + phi : grid - phi;
      points.point(2 + 2 * p)[k] = sign * x;
      points.point(3 + 2 * p)[k] = sign * (x + step);
    }
  }
  return points;
}

double pair_distance(std::size_t d, double whole, double fraction) {
  return std::sqrt(double(d)) * (whole + fraction) * kUlp;
}
}  // namespace

MarginSet pairs_rounding_apart(std::size_t pairs, std::size_t d, std::uint64_t seed) {
  return {"pairs rounding apart, " + std::to_string(d) + "-D",
          rounding_pairs(pairs, d, kWholeUlps, 0.15, true, false, seed),
          pair_distance(d, kWholeUlps, 0.15) * (1 + kEpsOffTheTie)};
}

namespace {
// m in [100, 164) whose rotated difference sqrt(d) (m + 1) ulp lies 0.4 of v (the rotated
// coordinate's ulp, at 2.013 sqrt(d)) above a multiple of v, or as near as any m comes.
double rotated_whole_ulps(std::size_t d) {
  const float rotated = float(2.013 * std::sqrt(double(d)));
  const double v = (double(std::nextafter(rotated, INFINITY)) - rotated) / kUlp;
  double best = 100, best_miss = 1;
  for (double m = 100; m < 164; ++m) {
    const double miss = std::fabs(std::fmod(std::sqrt(double(d)) * (m + 1) / v, 1.0) - 0.4);
    if (miss < best_miss) best = m, best_miss = miss;
  }
  return best;
}
}  // namespace

MarginSet pairs_rounding_apart_on_both_sides(std::size_t pairs, std::size_t d, std::uint64_t seed) {
  const double whole = rotated_whole_ulps(d);
  return {"pairs rounding apart on both sides of the origin, " + std::to_string(d) + "-D",
          rounding_pairs(pairs, d, whole, 0.15, true, true, seed), pair_distance(d, whole, 0.15) * (1 + kEpsOffTheTie)};
}

MarginSet pairs_rounding_together(std::size_t pairs, std::size_t d, std::uint64_t seed) {
  return {"pairs rounding together, " + std::to_string(d) + "-D",
          rounding_pairs(pairs, d, kWholeUlps, 0.85, false, false, seed),
          pair_distance(d, kWholeUlps, 0.85) * (1 - kEpsOffTheTie)};
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
