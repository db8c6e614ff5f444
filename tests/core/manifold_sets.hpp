#pragma once
// Points on a curved low-dimensional manifold in many dimensions, the shape of real embeddings: each point
// maps `hidden` Gaussian latent values through a random layer with tanh into `dims` coordinates, plus
// Gaussian noise of `noise` a coordinate and `offset` added to every coordinate.
#include <cstddef>
#include <cstdint>

#include "core/points/point_set.hpp"

namespace simjoin::testing {

PointSet manifold_points(std::size_t n, std::size_t dims, std::size_t hidden, double noise, double offset,
                         std::uint64_t seed);

}  // namespace simjoin::testing
