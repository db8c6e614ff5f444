#pragma once
// Host side of gpu-boehm (Böhm et al. 2009, section 5): points rotated by PCA so that the leading
// dimensions are the most selective, then a directory of L levels with fanout F: sorted by rotated
// dimension 0 into F quantile slabs, each slab by dimension 1 into F, and so on. The leaves (pages)
// are contiguous ranges of the resulting order, each with its bounding box. Every step checks for a
// cancel at least every few milliseconds, also on 10 M points: the long passes run in pieces on all
// cores, and the quantile selections partition step by step.
#include <cstdint>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/numeric/host_device.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::gpu {

// Squared gap between the boxes [low_a, high_a] and [low_b, high_b] of rotated coordinates, less the
// rounding slack in every dimension: gpu-boehm's page test (a page is searched when this is at most
// the search radius squared; gpu_boehm.cu proves why no pair is lost).
SIMJOIN_HOST_DEVICE inline double box_gap2(const float* low_a, const float* high_a, const float* low_b,
                                           const float* high_b, int d, float slack) {
  double sum = 0;
  for (int k = 0; k < d; ++k) {
    const double above = double(low_b[k]) - high_a[k], below = double(low_a[k]) - high_b[k];
    const double gap = (above > below ? above : below) - slack;
    if (gap > 0) sum += gap * gap;
  }
  return sum;
}

struct BoehmDirectory {
  std::size_t d = 0;
  std::vector<double> mean, components;    // the rotation: y = components * (x - mean), d x d rows
  std::vector<std::uint32_t> order;        // point ids in directory order
  std::vector<std::uint32_t> page_begin;   // page p holds order[page_begin[p], page_begin[p + 1])
  std::vector<float> page_low, page_high;  // pages x d, rotated coordinates
  Coordinates<float> rotated;              // n x d rotated coordinates, in directory order
  float rounding = 0;                      // bound on the float32 rounding of a rotated coordinate
};

// Rotates `points` with the PCA of `points` itself and builds the directory.
BoehmDirectory build_boehm_directory(const PointSet32& points, int levels, int fanout, const RunControl& control);

// The queries of an A join B, rotated like the directory's points and sorted by their first rotated
// coordinate, so that the queries of a block are close.
struct BoehmQueries {
  std::vector<std::uint32_t> order;  // query ids in that order
  Coordinates<float> rotated;        // n x d rotated coordinates, in that order
  Coordinates<float> points;         // n x d coordinates, in that order
  float largest = 0;                 // largest magnitude of a rotated coordinate
};
BoehmQueries order_queries(const BoehmDirectory& directory, const PointSet32& queries, const RunControl& control);

// Rows of `values` (n x d) in the order `order`.
Coordinates<float> gather_rows(const float* values, const std::vector<std::uint32_t>& order, std::size_t d,
                               const RunControl& control);

}  // namespace simjoin::gpu
