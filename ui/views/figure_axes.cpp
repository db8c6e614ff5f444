#include "ui/views/figure_axes.hpp"

#include <QStringList>

#include <cmath>

#include "core/points/pca_axes.hpp"

namespace simjoin::ui {

namespace {
bool named(const PointSet& points, std::size_t j, const char* prefix) {
  return j < points.column_names.size() &&
         QString::fromStdString(points.column_names[j]).startsWith(prefix, Qt::CaseInsensitive);
}
// Unnamed columns read as latitude, longitude: the first within +-90, the second within +-180 and
// reaching beyond +-90 (a .npy of places has no names to say so).
bool looks_like_lat_lon(const PointSet& points) {
  if (!points.column_names.empty() || points.empty()) return false;
  bool beyond = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double lat = points.point(i)[0], lon = points.point(i)[1];
    if (!(std::abs(lat) <= 90 && std::abs(lon) <= 180)) return false;
    beyond = beyond || std::abs(lon) > 90;
  }
  return beyond;
}
}  // namespace

FigureLabels with_axis_units(FigureLabels labels, const QString& units) {
  const QStringList parts = units.split(',');
  labels.x_unit = parts.value(0).trimmed();
  labels.y_unit = parts.size() > 1 ? parts.value(1).trimmed() : labels.x_unit;
  return labels;
}

Axes figure_axes(const PointSet& points, const Axes& view_axes) {
  if (points.dims() != 2) return view_axes;
  if ((named(points, 0, "lat") && named(points, 1, "lon")) || looks_like_lat_lon(points)) return {false, 1, 0};
  return view_axes.principal ? Axes{false, 0, 1} : view_axes;
}

QString column_title(const PointSet& points, std::size_t column) {
  const QString name = QString::fromStdString(column_name(points, column));
  if (points.dims() != 2 || !looks_like_lat_lon(points)) return name;
  return (column == 0 ? QString("lat (%1)") : QString("lon (%1)")).arg(name);
}

QString with_unit(const QString& title, const QString& unit) {
  return unit.isEmpty() ? title : title + " (" + unit + ")";
}

QRectF pick_region(const std::vector<float>& on_axes, std::uint32_t picked, double reach) {
  const double x = on_axes[2 * picked], y = on_axes[2 * picked + 1];
  return QRectF(x - reach, y - reach, 2 * reach, 2 * reach);
}

}  // namespace simjoin::ui
