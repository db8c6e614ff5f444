#pragma once
// What a view figure shows on its axes, apart from what the window shows: 2-D data in its own
// coordinates (a lon/lat map stays a map, lon across and north up) rather than on principal
// components, which only data of more dimensions than the view shows needs; axis titles with the
// units the user gives; and, for a picked point, the region around it, found from the data alone so
// that the figure is the same with or without a display, at any window size.
#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

#include "core/points/point_set.hpp"
#include "ui/views/view_plane.hpp"

namespace simjoin::ui {

// A figure's own words: its title and the units of its axes (--title, --axis-units).
struct FigureLabels {
  QString title;
  QString x_unit, y_unit;
};
// "deg" (both axes) or "deg,m" (x, then y); empty parts give no unit.
FigureLabels with_axis_units(FigureLabels labels, const QString& units);

// 2-D data: its own columns, as the view has them, lon across and lat up where the columns are named
// lat, lon (or, unnamed, hold values only latitude and longitude can); other data as the view has it.
Axes figure_axes(const PointSet& points, const Axes& view_axes);
// The column's name ("x1"), for unnamed latitude, longitude with what it holds: "lon (x1)".
QString column_title(const PointSet& points, std::size_t column);
// "lon" and "deg" -> "lon (deg)"; the title alone without a unit.
QString with_unit(const QString& title, const QString& unit);
// A square of half side `reach` around the picked point (the figure widens it to its own aspect).
QRectF pick_region(const std::vector<float>& on_axes, std::uint32_t picked, double reach);

}  // namespace simjoin::ui
