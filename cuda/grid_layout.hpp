#pragma once
// Host-side shape of the epsilon-grid of gpu-grid: cell width, which dimensions are indexed, and the
// linear cell ids. Pure arithmetic, so it is tested without a GPU.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/point_set.hpp"

namespace simjoin::gpu {

#ifdef __CUDACC__
#define SIMJOIN_HOST_DEVICE __host__ __device__
#else
#define SIMJOIN_HOST_DEVICE
#endif

inline constexpr int kMaxIndexedDims = 8;

struct GridLayout {
  double cell_width = 1;           // > eps, so points within eps lie in the same or adjacent cells
  std::vector<int> dims;           // indexed dimensions; dims[0] has stride 1
  std::vector<double> origin;      // per indexed dimension: cell c covers [origin + c w, origin + (c+1) w)
  std::vector<std::uint64_t> cells;    // per indexed dimension
  std::vector<std::uint64_t> strides;  // linear id = sum of cell coordinate * stride
  std::uint64_t id_count = 1;      // product of cells: every linear id is below it
  std::vector<std::string> notes;
};

// Cell width for eps (the frame's search radius, JoinParams::eps): slightly above it, so that points
// within it can never land in non-adjacent cells whatever the rounding; positive for eps = 0; widened where eps is so small against the extent that the cell count of one dimension
// would pass 2^30.
double grid_cell_width(double eps, double max_extent);

// Chooses the indexed dimensions from the bounds (of A, or of A and B together): up to
// kMaxIndexedDims dimensions with the most cells, as many as minimise an estimated per-query cost
// (3^(k-1) lookups of a row of 3 cells plus the expected candidates in 3^k cells), and never so
// many that the linear ids pass 2^62 (checked multiplication).
GridLayout choose_grid_layout(const Bounds& bounds, std::size_t indexed_points, double eps);

// The cell coordinate of x along indexed dimension j, clamped into [0, cells): the same formula on
// host and device (double arithmetic, so float32 inputs are exact).
SIMJOIN_HOST_DEVICE inline long long grid_cell_coord(double x, double origin, double width, long long cells) {
  long long c = static_cast<long long>(floor((x - origin) / width));
  return c < 0 ? 0 : (c >= cells ? cells - 1 : c);
}

}  // namespace simjoin::gpu
