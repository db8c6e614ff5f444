#pragma once
// Colours for categories (partitions) that stay distinguishable for k up to about 40.
#include <array>
#include <cstddef>
#include <cstdint>

namespace simjoin::ui {

using Rgb = std::array<std::uint8_t, 3>;

// Colour of category `index`; neighbouring indices get clearly different hues.
Rgb category_color(std::size_t index);

inline constexpr Rgb kPlainPoint{31, 119, 180};   // scatter view
inline constexpr Rgb kDimmed{200, 200, 200};      // points outside the selection
inline constexpr Rgb kCopy{214, 39, 40};          // replicated points
inline constexpr Rgb kPicked{0, 0, 0};
inline constexpr Rgb kNeighbour{255, 127, 14};
inline constexpr Rgb kCentroid{0, 0, 0};
inline constexpr Rgb kGridPoint{105, 105, 105};  // points over the shaded grid cells

}  // namespace simjoin::ui
