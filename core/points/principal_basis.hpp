#pragma once
// The top principal directions of a sample, by subspace iteration on its covariance: a few products
// of the sample's rows with d x (count + 16) columns, where a full eigendecomposition of d x d (960
// dimensions: about a second) would cost more than the join it serves. The directions need not be the
// exact eigenvectors: the principal-components filter (core/engines/component_filter.hpp) is exact for
// any basis whose rows are orthonormal within the bound it measures (core/numeric/lifted_bound.hpp);
// their quality decides only how many pairs it lets through.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/run_control.hpp"

namespace simjoin {

struct PrincipalBasis {
  std::size_t count = 0, dims = 0;
  std::vector<double> rows;      // count x dims, row-major, orthonormal to rounding, largest variance first
  std::vector<double> variance;  // the sample's variance along each row
};

// The top `count` directions (count < dims) of `centred`, n x dims row-major values whose mean has
// been subtracted; `seed` draws the starting subspace. The iteration runs in float32 (twice float64's
// rate on the host's vectors); the directions it finds are made orthonormal in float64. Throws
// Error(Cancelled) between iterations once `control` (if given) is cancelled.
PrincipalBasis top_directions(const std::vector<float>& centred, std::size_t n, std::size_t dims, std::size_t count,
                              std::uint64_t seed, const RunControl* control = nullptr);

}  // namespace simjoin
