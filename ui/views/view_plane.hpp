#pragma once
// The plane a 2-D view shows, as a plane of the data's own d-dimensional space: x = origin + s u + t v
// with orthonormal u, v. Principal axes give a plane through the mean; raw axes a, b give the plane
// of those two dimensions through the mean of the others. Structures of full dimension (centroids,
// bisector hyperplanes, the epsilon-grid) are drawn by intersecting or projecting them with it.
#include <array>
#include <vector>

#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::ui {

// The two displayed axes: principal components (of `pca`) or raw dimensions.
struct Axes {
  bool principal = true;
  std::size_t a = 0, b = 1;
};

struct ViewPlane {
  std::vector<double> origin, u, v;  // d each
};

// Throws Error(Internal) for principal axes without a PCA.
ViewPlane view_plane(const PointSet& points, const Pca* pca, const Axes& axes);

// Position of the d-dimensional point p in the plane, (p - origin) . u and (p - origin) . v: the
// coordinates project_points gives, in float64.
std::array<double, 2> to_plane(const ViewPlane& plane, const double* p);

// Every point's plane coordinates in float64 (n x 2), for cells that float32 would blur; with a
// `stride`, those of every stride-th point (0, stride, 2 stride, ...).
std::vector<double> plane_coordinates(const PointSet& points, const ViewPlane& plane, std::size_t stride = 1);

}  // namespace simjoin::ui
