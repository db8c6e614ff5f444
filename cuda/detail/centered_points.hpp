#pragma once
// Points for the norm form of the squared distance, |p|^2 + |q|^2 - 2 p.q, which tensor cores
// compute as a matrix product (norm_form_tile.cuh). Its rounding error grows with the norms, so the
// points are first translated to put a reference point near their middle at the origin (distances
// are unchanged), then scaled by a power of two that brings the largest coordinate near 2^14 (inside
// FP16's range) and packed as FP16 operands: split into two parts (split_half_mma.cuh), a 32-bit word
// a dimension, or plain, a half a dimension. Rows are zero-padded to a multiple of 16 dimensions, the
// depth of one tensor-core step.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/points/point_set.hpp"
#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

// The products a term: three from split FP16 operands (about float32 accuracy) or one from plain FP16.
enum class Operands { Split, Plain };

// 32-bit words a packed row takes.
__host__ __device__ inline unsigned packed_words(unsigned stride, Operands operands) {
  return operands == Operands::Split ? stride : stride / 2;
}

struct CenteredPoints {
  // n x packed_words(stride, operands) words. Within each group of 16 dimensions, for t = 0..3: split,
  // four words at 4t, hi of dimensions (2t, 2t+1), hi of (2t+8, 2t+9), then lo of the same, which lane t
  // of a fragment loads side by side; plain, the two hi words at 2t (an order kept from paired loads:
  // norm_form_tile.cuh now reads plain rows by ldmatrix, 16 bytes of a row at a time, the same way for
  // both operands, so each product still pairs one dimension of both points).
  DeviceBuffer<std::uint32_t> words;
  Operands operands = Operands::Split;
  DeviceBuffer<float> norms;  // n squared norms of the translated rows, unscaled
  std::size_t n = 0;
  std::size_t stride = 0;  // a multiple of 16
  float max_norm = 0;      // the largest of `norms` (infinite when a norm overflows)
};

// The mean of up to 4096 evenly spaced points of a, and as many of b when given (any point near the
// middle serves; the error bound uses the translated norms themselves).
std::vector<float> reference_point(const PointSet32& a, const PointSet32* b);

// The operands to pack for the largest squared norm and the scale found, or none (nothing packed).
using ChooseOperands = std::function<std::optional<Operands>(float max_norm, float scale)>;

// `sets` (on the device, as upload_points left them, `dims` real dimensions) minus `reference`,
// all with one scale, which `scale` receives, packed as `choose` says.
std::vector<CenteredPoints> center_points(const std::vector<const DevicePoints*>& sets, std::size_t dims,
                                          const std::vector<float>& reference, float& scale,
                                          const ChooseOperands& choose);

}  // namespace simjoin::gpu
