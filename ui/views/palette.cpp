#include "ui/views/palette.hpp"

namespace simjoin::ui {

namespace {

// Glasbey et al.'s construction ("Colour displays for categorical images", 2007): each colour is the
// sRGB grid colour (step 15, CIELAB lightness 25 to 88) farthest from all before it and from the
// background, the dimmed grey and the highlight colours, in CIELAB.
constexpr Rgb kDistinct[] = {
    {0, 255, 0},     {0, 120, 255},   {120, 150, 0},   {165, 0, 105},   {0, 240, 180},   {0, 0, 255},
    {240, 165, 255}, {120, 60, 0},    {0, 180, 255},   {105, 0, 165},   {255, 210, 0},   {255, 135, 135},
    {0, 75, 15},     {0, 60, 120},    {255, 210, 135}, {60, 240, 255},  {180, 240, 0},   {30, 195, 60},
    {255, 0, 105},   {105, 165, 120}, {120, 45, 60},   {255, 0, 180},   {180, 135, 0},   {210, 105, 255},
    {135, 75, 165},  {195, 135, 165}, {30, 150, 165},  {0, 75, 255},    {135, 120, 60},  {165, 225, 120},
    {165, 0, 45},    {255, 120, 180}, {195, 195, 255}, {165, 45, 255},  {0, 135, 45},    {225, 135, 75},
    {120, 120, 180}, {15, 90, 75},    {225, 225, 90},  {75, 60, 30},    {15, 60, 165},   {180, 30, 165},
    {90, 45, 90},    {0, 90, 120},    {210, 165, 135}, {210, 225, 165}, {165, 45, 0},    {150, 150, 255},
    {120, 225, 195}, {165, 225, 255}, {180, 105, 90},  {0, 105, 195},   {195, 75, 105},  {255, 90, 90},
    {180, 180, 90},  {255, 105, 225}, {120, 90, 225},  {120, 240, 60},  {120, 150, 180}, {255, 195, 210},
    {0, 240, 135},   {255, 195, 75},  {180, 90, 150},  {75, 105, 0}};

// Okabe & Ito, "Color Universal Design" (2008), without its black (the picked point's colour).
constexpr Rgb kOkabeIto[] = {{230, 159, 0}, {86, 180, 233}, {0, 158, 115},  {240, 228, 66},
                             {0, 114, 178}, {213, 94, 0},   {204, 121, 167}};

constexpr std::size_t kDistinctSize = std::size(kDistinct);
constexpr std::size_t kOkabeItoSize = std::size(kOkabeIto);

}  // namespace

std::size_t palette_size(PaletteKind palette) {
  return palette == PaletteKind::ColorBlind ? kOkabeItoSize : kDistinctSize;
}

Rgb category_color(std::size_t index, PaletteKind palette) {
  if (palette == PaletteKind::ColorBlind) {
    if (index < kOkabeItoSize) return kOkabeIto[index];
    index -= kOkabeItoSize;
  }
  return kDistinct[index % kDistinctSize];
}

std::string palette_name(PaletteKind palette) { return palette == PaletteKind::ColorBlind ? "colorblind" : "distinct"; }

std::optional<PaletteKind> parse_palette(const std::string& name) {
  for (PaletteKind palette : {PaletteKind::Distinct, PaletteKind::ColorBlind})
    if (name == palette_name(palette)) return palette;
  return std::nullopt;
}

}  // namespace simjoin::ui
