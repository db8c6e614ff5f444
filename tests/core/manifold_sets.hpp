#pragma once
// Points near a low-dimensional set in many dimensions, the shape of real embeddings: each point maps
// `hidden` Gaussian latent values through one random layer into `dims` coordinates (flat, or curved by
// tanh), plus Gaussian noise of `noise` a coordinate and `offset` added to every coordinate; and the eps
// at which such points have a given number of neighbours.
#include <cstddef>
#include <cstdint>

#include "core/points/point_set.hpp"

namespace simjoin::testing {

// On an affine subspace of `hidden` dimensions, but for the noise.
PointSet subspace_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed);

// On a curved manifold of `hidden` dimensions, but for the noise.
PointSet manifold_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed);

// The median, over `samples` evenly spaced points, of the distance to their `count`-th nearest other
// point: an eps at which a point has about `count` neighbours.
double eps_for_neighbours(const PointSet& points, std::size_t count, std::size_t samples);

}  // namespace simjoin::testing
