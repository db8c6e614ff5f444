#pragma once
// What one query point does in an epsilon-grid join (Gowanlock & Karsin 2018, sec. 3 and the
// unicomp pattern of sec. 4), in the viewed plane's grid: the 3 x 3 cells around its own, the ones
// it searches and the ones unicomp leaves to their own points, the candidates it tests and the
// neighbours it finds.
#include <cstdint>
#include <vector>

#include "core/points/point_set.hpp"
#include "ui/views/grid_cells.hpp"

namespace simjoin::ui {

struct GridSearch {
  CellXY home{};
  std::vector<CellXY> searched;           // of the 3 x 3 block, its own cell first
  std::vector<CellXY> skipped;            // of the 3 x 3 block, left to the other cell's points by unicomp
  std::vector<std::uint32_t> candidates;  // points it is tested against, ascending
  std::vector<std::uint32_t> found;       // candidates within eps (full dimension, float64)
  // Distance tests unicomp saves this query: the points of the skipped cells and, in its own cell,
  // those before it (cell order is id order here); each such pair is tested from the other side.
  std::uint64_t saved = 0;
};

// The search of point `query`, which must have a cell. Inside its own cell a unicomp query meets only
// the points after it.
GridSearch search_from(const PlaneGrid& grid, const PointSet& points, std::uint32_t query, double eps, bool unicomp);

}  // namespace simjoin::ui
