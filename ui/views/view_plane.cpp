#include "ui/views/view_plane.hpp"

#include "core/base/error.hpp"

namespace simjoin::ui {

ViewPlane view_plane(const PointSet& points, const Pca* pca, const Axes& axes) {
  const std::size_t d = points.dims();
  ViewPlane plane;
  if (axes.principal) {
    if (!pca) fail(ErrorKind::Internal, "principal axes requested without a PCA");
    plane.origin = pca->mean;
    plane.u.assign(pca->components.begin() + axes.a * d, pca->components.begin() + (axes.a + 1) * d);
    plane.v.assign(pca->components.begin() + axes.b * d, pca->components.begin() + (axes.b + 1) * d);
    return plane;
  }
  plane.origin.assign(d, 0.0);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = 0; j < d; ++j) plane.origin[j] += points.point(i)[j];
  for (double& m : plane.origin) m /= points.empty() ? 1.0 : double(points.size());
  // The viewed coordinates are the points' own values: the plane's origin is 0 along them.
  plane.origin[axes.a] = plane.origin[axes.b] = 0;
  plane.u.assign(d, 0.0);
  plane.v.assign(d, 0.0);
  plane.u[axes.a] = plane.v[axes.b] = 1;
  return plane;
}

std::array<double, 2> to_plane(const ViewPlane& plane, const double* p) {
  double s = 0, t = 0;
  for (std::size_t j = 0; j < plane.origin.size(); ++j) {
    const double c = p[j] - plane.origin[j];
    s += c * plane.u[j];
    t += c * plane.v[j];
  }
  return {s, t};
}

std::vector<double> plane_coordinates(const PointSet& points, const ViewPlane& plane, std::size_t stride) {
  std::vector<double> st;
  st.reserve(2 * (points.size() / stride + 1));
  for (std::size_t i = 0; i < points.size(); i += stride) {
    const auto [s, t] = to_plane(plane, points.point(i));
    st.insert(st.end(), {s, t});
  }
  return st;
}

}  // namespace simjoin::ui
