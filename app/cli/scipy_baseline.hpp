#pragma once
// SciPy's cKDTree timed on the same points, through scripts/scipy_ckdtree_count.py.
#include <cstdint>

#include "core/point_set.hpp"

namespace simjoin::cli {

struct ScipyTiming {
  double seconds = 0;
  std::uint64_t pairs = 0;
};

// Throws Error(Unavailable) when python3 with SciPy cannot run.
ScipyTiming time_scipy_ckdtree(const PointSet& points, double eps);

}  // namespace simjoin::cli
