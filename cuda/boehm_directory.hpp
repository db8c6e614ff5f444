#pragma once
// Host side of gpu-boehm (Böhm et al. 2009, section 5): points rotated by PCA so that the leading
// dimensions are the most selective, then a directory of L levels with fanout F: sorted by rotated
// dimension 0 into F quantile slabs, each slab by dimension 1 into F, and so on. The leaves (pages)
// are contiguous ranges of the resulting order, each with its bounding box.
#include <cstdint>
#include <vector>

#include "core/point_set.hpp"
#include "core/run_control.hpp"

namespace simjoin::gpu {

struct BoehmDirectory {
  std::size_t d = 0;
  std::vector<double> mean, components;  // the rotation: y = components * (x - mean), d x d rows
  std::vector<std::uint32_t> order;      // point ids in directory order
  std::vector<std::uint32_t> page_begin; // page p holds order[page_begin[p], page_begin[p + 1])
  std::vector<float> page_low, page_high;  // pages x d, rotated coordinates
  std::vector<float> rotated;            // n x d rotated coordinates, in directory order
  float rounding = 0;                    // bound on the float32 rounding of a rotated coordinate
};

// Rotates `points` with the PCA of `points` itself and builds the directory; checks `control` for a
// cancel between its steps.
BoehmDirectory build_boehm_directory(const PointSet32& points, int levels, int fanout, const RunControl& control);

// Rotated coordinates of other points (queries) with the same rotation, n x d.
std::vector<float> rotate_points(const BoehmDirectory& directory, const PointSet32& points);

}  // namespace simjoin::gpu
