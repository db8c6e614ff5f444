#pragma once
// A useful join radius for a data set before any run, and the range an eps control should span, so
// that parameters follow the data's own scale (metres, degrees or unit cubes alike).
#include <cstddef>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct EpsEstimate {
  // The median distance from a point to its 10th neighbour, rounded to two significant digits: a
  // join at this eps finds about ten neighbours for a typical point. 1 when all points coincide, a
  // hundredth of the diameter where most points have ten duplicates or more.
  double eps = 1;
  double nearest = 0;         // the median distance to the nearest neighbour (0 with many duplicates)
  double diameter = 0;        // the diagonal of the bounding box
  std::size_t queries = 0;    // points whose neighbours were measured
  std::size_t reference = 0;  // points they were measured against (all)

  // The range an eps control spans: from a small fraction of the nearest-neighbour distance up to
  // the diameter (both around `eps` where the data has no spread).
  double low() const;
  double high() const;
};

// Distances are the oracle's float64 distances on the file's values (core/numeric/exact_test.hpp). Up to
// 1,000 evenly spaced query points (at least 100 in high dimensions at millions of points) find
// their exact 10th neighbour among all points (core/points/kth_neighbour.hpp). Cancellable through `control`.
EpsEstimate estimate_eps(const PointSet& points, RunControl& control);

// `value` rounded to `digits` significant decimal digits (the nearest double to that decimal), so
// that an eps reads as a plain number: 0.012, 2300, 4.5e-07.
double round_significant(double value, int digits);

}  // namespace simjoin
