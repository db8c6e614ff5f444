#pragma once
// Colours of the 2-D views. Partitions take a categorical palette that stays distinct up to k = 64
// (Glasbey-style) or, for colour-blind readers, Okabe & Ito's eight colours; the highlights (picked
// point, its neighbours, copies, eps-bands) have colours of their own that no partition takes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace simjoin::ui {

using Rgb = std::array<std::uint8_t, 3>;

enum class PaletteKind {
  Distinct,    // 64 colours, each far from the others (CIELAB distance over 20) and from the highlights
  ColorBlind,  // Okabe & Ito's colours, told apart with any colour vision; the Distinct ones after them
};

// Colour of category `index`; indices past the palette's size repeat it.
Rgb category_color(std::size_t index, PaletteKind palette = PaletteKind::Distinct);
// How many categories `palette` tells apart (past that, colours repeat or lose their guarantee).
std::size_t palette_size(PaletteKind palette);
// "distinct" or "colorblind" (the --palette values), and back.
std::string palette_name(PaletteKind palette);
std::optional<PaletteKind> parse_palette(const std::string& name);

inline constexpr Rgb kPlainPoint{31, 119, 180};  // scatter view
inline constexpr Rgb kDimmed{200, 200, 200};     // points outside the selection
inline constexpr Rgb kCopy{228, 26, 28};         // replicated points
inline constexpr Rgb kBand{255, 127, 0};         // eps-band outlines
inline constexpr Rgb kPicked{0, 0, 0};
inline constexpr Rgb kNeighbour{255, 0, 255};
inline constexpr Rgb kCentroid{0, 0, 0};
inline constexpr Rgb kGridPoint{105, 105, 105};  // points over the shaded grid cells

}  // namespace simjoin::ui
