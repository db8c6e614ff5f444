#include "ui/views/layer_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace simjoin::ui {

void add_segment(Layers& out, Point2 p, Point2 q, Rgb color) {
  out.segments.insert(out.segments.end(), {float(p[0]), float(p[1]), float(q[0]), float(q[1])});
  out.segment_rgb.insert(out.segment_rgb.end(), color.begin(), color.end());
}

void add_polygon(Layers& out, const std::vector<double>& xy, Rgb color) {
  const std::size_t m = xy.size() / 2;
  for (std::size_t v = 0; v < m; ++v)
    add_segment(out, {xy[2 * v], xy[2 * v + 1]}, {xy[2 * ((v + 1) % m)], xy[2 * ((v + 1) % m) + 1]}, color);
}

void add_circle(Layers& out, Point2 centre, double radius, Rgb color) {
  constexpr int kSides = 72;
  std::vector<double> xy;
  for (int s = 0; s < kSides; ++s) {
    const double angle = 2 * std::numbers::pi * s / kSides;
    xy.push_back(centre[0] + radius * std::cos(angle));
    xy.push_back(centre[1] + radius * std::sin(angle));
  }
  add_polygon(out, xy, color);
}

void add_rect(Layers& out, Point2 low, Point2 high, Rgb color) {
  out.rects.insert(out.rects.end(), {float(low[0]), float(low[1]), float(high[0]), float(high[1])});
  out.rect_rgb.insert(out.rect_rgb.end(), color.begin(), color.end());
}

void add_hatch(Layers& out, Point2 low, Point2 high, bool rising, int lines, Rgb color) {
  const double w = high[0] - low[0], h = high[1] - low[1];
  // Line t runs along the diagonal direction at offset t / (lines + 1) of the rectangle's
  // "diagonal span", clipped to the rectangle: in unit coordinates x + y = c (falling: x - y).
  for (int t = 1; t <= lines; ++t) {
    const double c = 2.0 * t / (lines + 1);  // 0 < c < 2
    const double x0 = std::max(0.0, c - 1), x1 = std::min(1.0, c);
    const auto at = [&](double x) {
      const double y = c - x;
      return Point2{low[0] + x * w, rising ? high[1] - y * h : low[1] + y * h};
    };
    add_segment(out, at(x0), at(x1), color);
  }
}

}  // namespace simjoin::ui
