#include "core/points/pca_axes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace simjoin {

namespace {

// Columns of an axis by decreasing magnitude of their loading (stable: equal ones keep column order).
std::vector<std::size_t> by_magnitude(const Pca& pca, std::size_t axis) {
  const double* row = &pca.components.at(axis * pca.dims);
  std::vector<std::size_t> order(pca.dims);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [row](std::size_t a, std::size_t b) { return std::fabs(row[a]) > std::fabs(row[b]); });
  return order;
}

std::string format(const char* pattern, double value) {
  char text[32];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

}  // namespace

void orient_axes(Pca& pca) {
  for (std::size_t axis = 0; axis < pca.dims; ++axis) {
    double* row = &pca.components[axis * pca.dims];
    if (row[by_magnitude(pca, axis).front()] >= 0) continue;
    // 0 - x, not -x: a zero loading stays +0 and prints without a sign.
    for (std::size_t j = 0; j < pca.dims; ++j) row[j] = 0.0 - row[j];
  }
}

std::string column_name(const PointSet& points, std::size_t j) {
  if (points.column_names.size() == points.dims()) return points.column_names[j];
  return std::string("x").append(std::to_string(j));
}

std::vector<std::size_t> main_columns(const Pca& pca, std::size_t axis, std::size_t max_columns) {
  const double* row = &pca.components.at(axis * pca.dims);
  std::vector<std::size_t> columns;
  double covered = 0;
  for (std::size_t j : by_magnitude(pca, axis)) {
    if (columns.size() == max_columns || covered >= 0.8) break;
    columns.push_back(j);
    covered += row[j] * row[j];
  }
  return columns;
}

std::string axis_label(const Pca& pca, std::size_t axis, const PointSet& points) {
  std::string label = "PC" + std::to_string(axis + 1) + " (" + format("%.1f", 100 * pca.explained(axis)) + " %):";
  const auto columns = main_columns(pca, axis);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    label += c ? ", " : " ";
    label += column_name(points, columns[c]);
  }
  return label;
}

std::string describe_loadings(const Pca& pca, std::size_t axis, const PointSet& points, std::size_t max_columns) {
  const double* row = &pca.components.at(axis * pca.dims);
  const auto order = by_magnitude(pca, axis);
  std::string text;
  for (std::size_t c = 0; c < std::min(max_columns, order.size()); ++c) {
    if (c) text += ", ";
    text += column_name(points, order[c]) + " " + format("%.2f", row[order[c]]);
  }
  return text;
}

}  // namespace simjoin
