#pragma once
// The principal-components filter's bound (core/engines/component_filter.hpp), which gpu-bruteforce
// joins long rows through: each point x (float32 frame coordinates) becomes the k + 1 coordinates
//   L(x) = (Q u, |u - Q^T Q u|),   u = x - c,
// with c a float64 centre and Q the k x d float64 basis (rows the top principal components of a
// sample). For an exactly orthonormal P, L*(x) = (P u, |R u|), R = I - P^T P, is 1-Lipschitz:
//   |x - y|^2 = |P(u - v)|^2 + |R(u - v)|^2 >= |P u - P v|^2 + (|R u| - |R v|)^2,
// so every pair within r in d dimensions is within r of each other in k + 1. What is computed, the
// float32 lifted point L~(x), differs from L*(x) for one exact P by at most e(x) = kappa |u| + tau
// (below), so every pair within r is within r + e(x) + e(y) <= lifted_radius(r, max |u|) of each other
// in the lifted points: an exact join of those at that radius misses no pair, and its candidates are
// decided by the exact test in all d dimensions.
//
// Why e(x) bounds the error. Let eta >= ||Q Q^T - I||_2 (orthonormality_bound), eta < 1. The polar
// decomposition Q = U P has P with orthonormal rows and U = (Q Q^T)^(1/2), whose eigenvalues sqrt(l)
// satisfy |sqrt(l) - 1| <= |l - 1| <= eta: |Q u - P u| <= eta |u|, ||Q|| <= 1 + eta. With
// g(n) = n 2^-53 / (1 - n 2^-53), in any order of summation, fused or not:
//  - u~ = fl(x - c) componentwise: |u~ - u| <= 2^-53 |u|;
//  - each projection fl(Q_j . u~) is within g(d) |Q_j| |u~| of Q_j . u~, so the k of them are within
//    sqrt(k) g(d) (1 + eta) |u~|: in all, |p~ - P u| <= a_p |u| with
//    a_p = eta + (1 + eta) (2^-53 + sqrt(k) g(d) (1 + 2^-53));
//  - the squared norm fl(sum u~_t^2) is within g(d) |u~|^2 of |u~|^2, which is within (2^-52 + 2^-106)
//    |u|^2 of |u|^2: a_s = g(d) (1 + 2^-53)^2 + 2^-52 + 2^-106;
//  - fl(sum p~_j^2) is within g(k) |p~|^2 <= g(k) (1 + a_p)^2 |u|^2 of |p~|^2, and | |p~|^2 - |P u|^2 |
//    <= a_p (2 + a_p) |u|^2; the subtraction rounds by 2^-53 of a value below 2 |u|^2;
//  - so r~^2 = max(0, difference) is within delta |u|^2 of |R u|^2 = |u|^2 - |P u|^2, delta = a_s +
//    g(k) (1 + a_p)^2 + a_p (2 + a_p) + 2^-52, and as |sqrt(s) - sqrt(t)| <= sqrt(|s - t|), the
//    correctly rounded square root is within (sqrt(delta) + 2^-52) |u| of |R u|;
//  - rounding the k + 1 float64 values to float32 moves them by 2^-24 of their norm, at most
//    |u| + a_p |u| + the residual's error, plus 2^-150 each where they fall below float32's normal
//    range: tau = sqrt(k + 1) 2^-150, which also covers float64 underflow (2^-1074 a product).
// kappa sums these with a factor of 2 to spare, which also covers max |u| taken from the computed norms
// (within a_s of the exact ones). Float64 cannot overflow: frame coordinates are float32,
// whose squares and sums over d <= 2^20 dimensions stay far inside float64's range.
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/numeric/host_device.hpp"

namespace simjoin::lifted {

// g(n) of the proof above.
inline double gamma(double n) { return n * 0x1p-53 / (1 - n * 0x1p-53); }

// The float32 lifted point of x (d frame coordinates), out[0..k) the projections and out[k] the
// residual's norm, as the proof above computes it (gpu-bruteforce's kernel sums in another order,
// which the proof allows). Returns |x - c| in float64.
SIMJOIN_HOST_DEVICE inline double lift(const float* x, const double* centre, const double* basis, std::size_t k,
                                       std::size_t d, float* out) {
  double squared = 0, projected = 0;
  for (std::size_t t = 0; t < d; ++t) squared += (double(x[t]) - centre[t]) * (double(x[t]) - centre[t]);
  for (std::size_t j = 0; j < k; ++j) {
    double p = 0;
    for (std::size_t t = 0; t < d; ++t) p += basis[j * d + t] * (double(x[t]) - centre[t]);
    out[j] = float(p);
    projected += p * p;
  }
  out[k] = float(std::sqrt(std::max(0.0, squared - projected)));
  return std::sqrt(squared);
}

// eta of the proof: an upper bound on ||Q Q^T - I||_2 for the k x d row-major basis, from the
// Frobenius norm of the computed Gram matrix minus I, plus the computation's own error (each entry
// within g(d) (1 + 2^-52) |Q_i| |Q_j| of the exact one). The Gram matrix is symmetric, also as computed
// (each product is), so each entry off the diagonal is computed once and counted twice.
inline double orthonormality_bound(const double* basis, std::size_t k, std::size_t d) {
  double frobenius2 = 0, norms2 = 0;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = i; j < k; ++j) {
      double dot = 0;
      for (std::size_t t = 0; t < d; ++t) dot += basis[i * d + t] * basis[j * d + t];
      if (i == j) norms2 += dot;
      const double off = i == j ? dot - 1 : dot;
      frobenius2 += (i == j ? 1 : 2) * off * off;
    }
  const double computed = std::sqrt(frobenius2) * (1 + 0x1p-48);
  return computed + gamma(double(d)) * (1 + 0x1p-52) * norms2 * (1 + 0x1p-48);
}

// kappa of the proof, for k components of d dimensions and a basis within eta of orthonormal.
inline double error_factor(std::size_t k, std::size_t d, double eta) {
  const double a_p = eta + (1 + eta) * (0x1p-53 + std::sqrt(double(k)) * gamma(double(d)) * (1 + 0x1p-53));
  const double a_s = gamma(double(d)) * (1 + 0x1p-52) + 0x1p-52 + 0x1p-106;
  const double delta = a_s + gamma(double(k)) * (1 + a_p) * (1 + a_p) + a_p * (2 + a_p) + 0x1p-52;
  const double residual = std::sqrt(delta) + 0x1p-52;
  const double rounding = 0x1p-24 * (1 + a_p + residual);
  return 2 * (a_p + residual + rounding);
}

// tau of the proof.
inline double absolute_error(std::size_t k) { return std::sqrt(double(k + 1)) * 0x1p-150; }

// The lifted points' radius that holds every pair within `radius` of each other in d dimensions, for
// points at most max_norm from the centre; rounded up.
inline double lifted_radius(double radius, double max_norm, double kappa, std::size_t k) {
  return (radius + 2 * (kappa * max_norm + absolute_error(k))) * (1 + 0x1p-50);
}

}  // namespace simjoin::lifted
