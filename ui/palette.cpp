#include "ui/palette.hpp"

#include <cmath>

namespace simjoin::ui {

namespace {

Rgb hsv_to_rgb(double h, double s, double v) {
  const double c = v * s;
  const double hp = h * 6.0;
  const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(hp) % 6) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  const double m = v - c;
  auto to_byte = [m](double u) { return static_cast<std::uint8_t>(std::lround((u + m) * 255)); };
  return {to_byte(r), to_byte(g), to_byte(b)};
}

}  // namespace

Rgb category_color(std::size_t index) {
  // Golden-ratio hue steps spread any prefix of indices around the wheel; cycling through three
  // saturation/value levels separates indices whose hues come close once k exceeds ~12.
  constexpr double kGolden = 0.618033988749895;
  const double hue = std::fmod(0.05 + index * kGolden, 1.0);
  static constexpr double kSat[3] = {0.85, 0.55, 0.95};
  static constexpr double kVal[3] = {0.90, 0.75, 0.55};
  const std::size_t level = (index / 7) % 3;
  return hsv_to_rgb(hue, kSat[level], kVal[level]);
}

}  // namespace simjoin::ui
