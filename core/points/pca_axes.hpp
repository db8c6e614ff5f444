#pragma once
// How the views present principal axes: each with a fixed sign, so that a map keeps its orientation
// whatever sign the eigensolver returns, and named by the input columns that make it.
#include <cstddef>
#include <string>
#include <vector>

#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Flips every axis whose largest-magnitude loading is negative (the first of equal magnitudes
// decides), so that the axis points the way of the column that makes most of it.
void orient_axes(Pca& pca);

// Column j's name: the file's own, else "x<j>".
std::string column_name(const PointSet& points, std::size_t j);

// The columns that make an axis: by decreasing magnitude of their loading, until their squared
// loadings add up to 80 % of the axis (loadings have unit length), at most `max_columns`.
std::vector<std::size_t> main_columns(const Pca& pca, std::size_t axis, std::size_t max_columns = 3);

// "PC1 (55.2 %): lon" — the axis, its share of the variance and its main columns.
std::string axis_label(const Pca& pca, std::size_t axis, const PointSet& points);

// "lon 0.99, lat -0.12": the `max_columns` largest loadings of an axis with their signs.
std::string describe_loadings(const Pca& pca, std::size_t axis, const PointSet& points, std::size_t max_columns = 4);

}  // namespace simjoin
