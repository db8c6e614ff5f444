#include "core/frame/join_frame.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>

#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

// The proof behind accept, reject and search_radius. Units are the frame's (file units times 2^e).
// u = 2^-24 and w = 2^-53 are the float32 and float64 unit roundoffs.
//  1. A frame coordinate y = fl32(fl64(x - o) * 2^e) is off from (x - o) 2^e by at most
//     c R_k + 2^-149, with c = u + 2w and R_k the largest |x - o| 2^e in dimension k (the 2^-149
//     covers a result that falls below float32's normal range). Two points' difference vectors
//     therefore differ by at most E = 2 sqrt(sum_k (c R_k + 2^-149)^2), so their exact float32-
//     coordinate distance s and the true distance t of the file's values satisfy |s - t| <= E.
//  2. An engine's float32 squared distance D sums d rounded squares of rounded differences, in any
//     order, with or without fused multiply-add: |D - s^2| <= g s^2 + a, g = (d+2)u / (1 - (d+2)u),
//     a = (2d+2) 2^-149 for results below the normal range.
//  3. The oracle's sum O (in its own scale, converted exactly into the frame's) satisfies
//     |O - t^2| <= g' t^2 + a', g' = (d+2)w / (1 - (d+2)w), and it accepts when O <= T.
//  Oracle accepts => t^2 <= (T + a') / (1 - g') = tmax^2 => s <= tmax + E = search_radius
//                 => D <= search_radius^2 (1 + g) + a = reject.
//  D <= accept = (tacc - E)^2 (1 - g) - a, tacc^2 = (T - a') / (1 + g')
//                 => s <= tacc - E => t <= tacc => O <= T: the oracle accepts.
// The double arithmetic below is then widened by 2^-40 (reject, search_radius) or narrowed by it
// (accept) before rounding outwards to float32.

namespace {
constexpr double kUnit32 = 0x1p-24;
constexpr double kUnit64 = 0x1p-53;
constexpr double kSlack = 0x1p-40;
constexpr int kLargestExponent = 1023;  // 2^1023, the largest power of two a double holds

double gamma(std::size_t d, double unit) {
  const double n = double(d + 2) * unit;
  return n / (1 - n);
}

}  // namespace

// The oracle's power of two is 2^-ilogb(eps), which brings eps into [1, 2). Below eps = 2^-1023 that
// power is no double (2^1024 and up overflow), and eps = 0 has none; 2^1023 then decides every pair
// alike: a nonzero difference scales to at least 2^-51, so no square falls below the normal range,
// and the comparison is unchanged by the remaining power of two. For eps = 0 a pair is within only
// when every difference is zero (with a scale of 1, differences below 1e-162 would square to zero).
ExactBand oracle_band(double eps) {
  ExactBand band;
  const int exponent = eps > 0 ? std::min(-std::ilogb(eps), kLargestExponent) : kLargestExponent;
  band.scale = std::ldexp(1.0, exponent);
  band.eps2 = (eps * band.scale) * (eps * band.scale);
  return band;
}

JoinFrame::JoinFrame(const Bounds64& bounds, double eps) : eps_(eps), bounds_(bounds) {
  const std::size_t d = bounds.low.size();
  origin_.assign(d, 0.0);
  half_extent_.assign(d, 0.0);
  double widest = 0;
  for (std::size_t k = 0; k < d; ++k) {
    // Halved first where the span itself overflows (coordinates of both signs near 1e308).
    const double span = bounds.high[k] - bounds.low[k];
    origin_[k] = std::isfinite(span) ? bounds.low[k] + span / 2 : bounds.low[k] / 2 + bounds.high[k] / 2;
    half_extent_[k] = std::max(bounds.high[k] - origin_[k], origin_[k] - bounds.low[k]) * (1 + 4 * kUnit64);
    widest = std::max(widest, half_extent_[k]);
  }

  // The frame keeps the file's scale (so that the engines' notes speak in its units) while eps, or the
  // extent when eps = 0, lies well inside float32's range; otherwise it scales like the oracle, which
  // brings eps into [1, 2), but never so far that coordinates pass 2^62 (eps far below the extent's
  // float32 resolution: the band then covers every pair).
  band_ = oracle_band(eps);
  const int oracle_exponent = std::ilogb(band_.scale);
  const double size = eps > 0 ? eps : widest;
  if (size == 0 || (size >= 0x1p-40 && size <= 0x1p40))
    scale_exponent_ = 0;
  else
    scale_exponent_ = eps > 0 ? oracle_exponent : 20 - std::ilogb(widest);
  if (widest > 0) scale_exponent_ = std::min(scale_exponent_, 61 - std::ilogb(widest));
  scale_exponent_ = std::min(scale_exponent_, kLargestExponent);  // subnormal extents

  const double c = kUnit32 + 2 * kUnit64;
  double spread = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const double error = c * std::ldexp(half_extent_[k], scale_exponent_) + 0x1p-149;
    spread += error * error;
  }
  const double E = 2 * std::sqrt(spread) * (1 + kSlack);
  distance_error_ = E;
  const double g = gamma(d, kUnit32), g64 = gamma(d, kUnit64);
  const double a32 = double(2 * d + 2) * 0x1p-149;
  // The oracle's threshold and underflow slack, moved exactly into the frame's scale.
  const int shift = 2 * (scale_exponent_ - oracle_exponent);
  const double T = std::ldexp(band_.eps2, shift);
  const double a64 = std::ldexp(double(2 * d + 2) * 0x1p-1074, shift);

  const double t_max = std::sqrt((T + a64) / (1 - g64));
  search_radius_ = (t_max + E) * (1 + kSlack);
  band_.reject = float_above((search_radius_ * search_radius_ * (1 + g) + a32) * (1 + kSlack));
  const double t_accept = T > a64 ? std::sqrt((T - a64) / (1 + g64)) : 0;
  const double r = t_accept - E;
  const double accept = r > 0 ? (r * r * (1 - g) - a32) * (1 - kSlack) : -1;
  band_.accept = accept > 0 ? float_below(accept) : -1.0f;
}

PointSet32 JoinFrame::to_frame(const PointSet& points, const RunControl* control) const {
  const std::size_t n = points.size(), d = points.dims();
  PointSet32 frame = PointSet32::uninitialized(n, d);
  const double* from = points.data();
  float* to = frame.data();
  // Multiplying by a power of two rounds exactly as ldexp does, without a library call per value.
  const double scale = std::ldexp(1.0, scale_exponent_);
  const double* origin = origin_.data();
  constexpr std::size_t kRows = std::size_t(1) << 20;
  for (std::size_t first = 0; first < n; first += kRows) {
    if (control) control->throw_if_cancelled();
    const std::size_t last = std::min(n, first + kRows);
#pragma omp parallel for schedule(static) if ((last - first) * d >= (1u << 18))
    for (std::size_t i = first; i < last; ++i)
      for (std::size_t k = 0; k < d; ++k) to[i * d + k] = float((from[i * d + k] - origin[k]) * scale);
  }
  frame.column_names = points.column_names;
  frame.source = points.source;
  return frame;
}

double JoinFrame::to_file_length(double length) const { return std::ldexp(length, -scale_exponent_); }

double JoinFrame::to_file_coordinate(double coordinate, std::size_t k) const {
  return origin_[k] + std::ldexp(coordinate, -scale_exponent_);
}

double JoinFrame::band_width() const {
  const double eps2 = std::ldexp(eps_ * eps_, 2 * scale_exponent_);
  if (!(eps2 > 0)) return INFINITY;
  return (double(band_.reject) - std::max(0.0, double(band_.accept))) / eps2;
}

std::string JoinFrame::precision_warning(const std::string& source) const {
  if (band_width() < 0.5 || half_extent_.empty()) return {};
  const double extent = 2 * *std::max_element(half_extent_.begin(), half_extent_.end());
  std::ostringstream text;
  text.precision(6);
  text << (source.empty() ? std::string("the input") : source) << ": eps = " << eps_
       << " is below what float32 resolves across the data's extent of " << extent
       << "; most candidate pairs are decided again in float64 (exact, but slower)";
  return text.str();
}

}  // namespace simjoin
