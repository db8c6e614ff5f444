#pragma once
// Shapes the view layers are made of, in view (plane) coordinates: line segments, polygons,
// circles, shaded cells and their hatching.
#include <array>
#include <vector>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

using Point2 = std::array<double, 2>;

void add_segment(Layers& out, Point2 p, Point2 q, Rgb color);
// Closed polygon x0, y0, x1, y1, ...
void add_polygon(Layers& out, const std::vector<double>& xy, Rgb color);
void add_circle(Layers& out, Point2 centre, double radius, Rgb color);
// A filled axis-aligned rectangle (opaque: translucent cells would send the whole layer through
// VTK's translucent pass, where the view's OpenGL surface drops it).
void add_rect(Layers& out, Point2 low, Point2 high, Rgb color);
// Parallel lines across the rectangle, rising (/) or falling (\), `lines` of them.
void add_hatch(Layers& out, Point2 low, Point2 high, bool rising, int lines, Rgb color);

}  // namespace simjoin::ui
