#pragma once
// The float32 distance test shared by the CPU engines: squared distance compared with eps^2, summed
// over the dimensions in order (as the oracle does), so results differ from the oracle only by
// float32 rounding (see float32_tolerance in core/verify.hpp).
#include <cstddef>

namespace simjoin {

inline float squared_distance(const float* p, const float* q, std::size_t d) {
  float sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const float diff = p[k] - q[k];
    sum += diff * diff;
  }
  return sum;
}

inline float squared_eps(double eps) { return float(eps * eps); }

}  // namespace simjoin
