#pragma once
// Inputs that need each safety margin of the join frame (core/frame): joins whose result changes when
// the margin is halved or narrowed, on every seed (the positions are random, the structure is not).
// The engine contract joins them on the CPU engines and, from tests/cuda, on the GPU engines.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/points/point_set.hpp"

namespace simjoin::testing {

struct MarginSet {
  std::string name;
  PointSet points;
  double eps = 0;
};

// Pairs whose float32 distance in the join frame differs from their true distance by most of the
// frame's rounding bound E = 2 sqrt(sum_k (c R_k)^2) (core/frame/join_frame.cpp). Coordinates lie in
// [2.01, 2.016] with the frame's half-extent 2.02 in every dimension (two corners at -2.02 and 2.02
// put the frame's origin at 0): just above a power of two, where float32's rounding is largest
// against the extent (E = 1.01 sqrt(d) ulp, the ulp 2^-22). Each pair differs by (m + f) ulp in every
// dimension, its points placed so that they round apart or together:
//  - apart (f = 0.15, eps just above the true distance): every coordinate difference grows to m + 1
//    ulp, the float32 distance 0.85 sqrt(d) ulp beyond the true one. Half of E rejects the pair.
//  - together (f = 0.85, eps just below the true distance): every difference shrinks to m ulp, the
//    float32 distance 0.85 sqrt(d) ulp short of the true one. Half of E accepts the pair.
// eps (about 0.001 sqrt(d)) is no power of two and lies 0.15 or 0.85 of an ulp off the float32
// values' grid, so float32 cannot decide the pairs by luck.
MarginSet pairs_rounding_apart(std::size_t pairs, std::size_t d, std::uint64_t seed);
MarginSet pairs_rounding_together(std::size_t pairs, std::size_t d, std::uint64_t seed);

// Pairs rounding apart as above, but with m near 100 (eps about 100 sqrt(d) ulp, 2.4e-5 sqrt(d): the
// extent is about 1.7e5 / sqrt(d) times eps) and every second pair negated: two clusters at about
// +-2.013 (1, ..., 1), whose mean is near the origin and whose principal axis is the diagonal, along
// which every pair's difference lies. For an index that rotates the frame coordinates (gpu-boehm's
// PCA) and stores them in float32: the first rotated coordinate, about 2.013 sqrt(d) in magnitude,
// lies on a grid of v = 1, 1, 4, 8 frame ulps at d = 2, 3, 24, 128, so a pair's stored rotated
// difference is a whole number of v: its exact value sqrt(d) (m + 1) ulp (the frame distance s)
// rounded down or up, up with a probability of its fraction (each point's offset from the grid is
// pseudo-random: the axis' entries are no short binary fractions). m is chosen per d (below 164) so
// that this fraction is about 0.4: rounded up, the difference is s + 0.6 v. The search radius
// r = t_max + E is about (m + 0.15 + 1.01) sqrt(d) ulp, r - s = 0.16 sqrt(d) ulp, under 0.23 v, so
// about 40 % of the pairs have a stored difference beyond r. With at most 256 points a page holds one
// point (16^min(3, d) pages), so its box is that point and it lies beyond r: an index that allows
// nothing for the rotation's rounding loses those pairs. A relative margin of 1e-3 on r adds only
// 0.1 sqrt(d) ulp (below 0.6 v - 0.23 v at these d), so it cannot stand in for that allowance here.
// (At a perfect square d the difference is a multiple of v: no pair could be lost.)
MarginSet pairs_rounding_apart_on_both_sides(std::size_t pairs, std::size_t d, std::uint64_t seed);

// A far point (core/frame/far_points.cpp) eps (1 - 2^-12) beyond an inlier that lies on the middle
// box's face, a pair only the full separation margin keeps. n points in [0, 1]^d, 5 % of each
// coordinate exactly 0 and 5 % exactly 1 (the sample's 1st and 99th percentiles are then 0 and 1,
// and the middle box [0, 2] in every dimension), an inlier at x_0 = 2 (on the face), the far point at
// x_0 = 2 + eps (1 - 2^-12) (both 0.5 elsewhere), and a point at 1e7 that makes setting far points
// apart worthwhile. eps = 0.1.
MarginSet far_point_beside_the_face(std::size_t n, std::size_t d, std::uint64_t seed);

// Pairs exactly eps = 3 apart and just not (8, 9 or 10 coordinates differing by 1) at integer
// coordinates in [0, 40]^d moved by `offset`: ties of the float64 test in any dimension.
MarginSet integer_ties(std::size_t pairs, std::size_t d, double offset, std::uint64_t seed);

}  // namespace simjoin::testing
