#pragma once
// The picked point's neighbours as a CSV file: one row a neighbour within eps (the exact test of
// core/numeric/exact_test.hpp, on the file's values), nearest first, with its row in the file, its
// Euclidean distance in float64 and its coordinates. Written atomically: a failed or cancelled
// write leaves an older file as it was.
#include <cstdint>
#include <string>

#include "core/points/point_set.hpp"

namespace simjoin::ui {

// Throws Error(BadInput) for an id outside the points or a path that cannot be written; returns
// the number of neighbours written.
std::size_t write_pick_neighbours(const PointSet& points, std::uint32_t id, double eps, const std::string& path);

}  // namespace simjoin::ui
