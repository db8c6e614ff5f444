#pragma once
// The float32 squared distance the CPU engines compute in the join's frame, summed over the
// dimensions in order. Its rounding is covered by the band of core/join_frame.cpp; ExactPairTest
// (core/exact_test.hpp) decides from it.
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

}  // namespace simjoin
