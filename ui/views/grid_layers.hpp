#pragma once
// The Grid view: the epsilon-grid of the viewed axes with its occupancy, what the engine's own grid
// indexes, and the picked point's search (Gowanlock & Karsin 2018): the 3 x 3 cells around it, the
// unicomp half it searches and the half it leaves to the other cells, its eps-circle, the candidates
// it tests and the neighbours it finds.
#include <vector>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

// Above this many non-empty cells, cells are grouped into super-cells (drawing stays fast).
inline constexpr std::size_t kMaxDrawnCells = 10'000;

// Fills `out` and sets the points' colours for the Grid view.
void grid_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors);

// The occupancy shade of a cell holding `count` points when the fullest holds `max_count`: light to
// dark blue on a log scale, so that the many sparse cells and the few full ones both read.
Rgb occupancy_shade(std::uint32_t count, std::uint32_t max_count);

}  // namespace simjoin::ui
