#pragma once
// The float32 frame a join computes in. Coordinates are translated by a float64 origin (the middle
// of the joint bounding box of A and B), scaled by a power of two where eps lies outside
// [2^-40, 2^40] (bringing it near 1), then rounded to float32: large offsets (UTM or Earth-centred
// metres) cost no precision, and neither eps^2 nor the squared distances can overflow or underflow. The frame also
// proves the band of core/numeric/exact_test.hpp and the search radius the engines' indexes must cover.
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/numeric/exact_test.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// The oracle's scale and threshold for eps (accept and reject left at -1: every test is the oracle's).
ExactBand oracle_band(double eps);

class JoinFrame {
 public:
  // b is null for a self-join. eps in the file's units, finite and >= 0.
  JoinFrame(const PointSet& a, const PointSet* b, double eps) : JoinFrame(joint_bounds(a, b), eps) {}
  // The frame of any points within `bounds`.
  JoinFrame(const Bounds64& bounds, double eps);
  // The frame of the same eps for points within other bounds.
  JoinFrame over(const Bounds64& bounds) const { return JoinFrame(bounds, eps_); }

  // The caller's eps, in the file's units, and the bounds the frame was built for.
  double eps() const { return eps_; }
  const Bounds64& bounds() const { return bounds_; }

  // The points' float32 coordinates in this frame; checks `control` for cancel every million rows.
  PointSet32 to_frame(const PointSet& points, const RunControl* control = nullptr) const;

  // Every pair within eps for the oracle is at most this far apart in frame coordinates (float32
  // values, exact arithmetic): the radius an engine's index must search, in frame units.
  double search_radius() const { return search_radius_; }
  const ExactBand& band() const { return band_; }
  // Frame length -> file length, and frame coordinate of dimension k -> file coordinate.
  double to_file_length(double length) const;
  double to_file_coordinate(double coordinate, std::size_t k) const;
  // How far float32 rounding of the coordinates can move a distance, in file units.
  double distance_error() const { return to_file_length(distance_error_); }
  // Largest distance of a coordinate from the origin, per dimension, in file units.
  const std::vector<double>& half_extent() const { return half_extent_; }
  // Fraction of the squared distances around eps^2 that float32 cannot decide: (reject - accept) /
  // eps^2 in frame units (infinite for eps = 0).
  double band_width() const;
  // Non-empty when the band is so wide that most candidates need the float64 re-check: names the
  // extent and eps.
  std::string precision_warning(const std::string& source) const;

 private:
  std::vector<double> origin_;
  std::vector<double> half_extent_;
  int scale_exponent_ = 0;  // frame = (x - origin) * 2^scale_exponent_
  double eps_ = 0;
  Bounds64 bounds_;
  double search_radius_ = 0;
  double distance_error_ = 0;  // E of the proof, frame units
  ExactBand band_;
};

}  // namespace simjoin
