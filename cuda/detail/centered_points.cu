#include "cuda/detail/centered_points.hpp"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cmath>

#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/split_half_mma.cuh"

namespace simjoin::gpu {

namespace {
constexpr std::size_t kSamplePoints = 4096;
constexpr unsigned kThreads = 256;
constexpr int kLargestExponent = 14;   // the largest scaled coordinate stays below 2^14
constexpr int kMaxScaleExponent = 20;  // tiny spreads are scaled up by at most 2^20

// One thread per row: the translated row, zeros past dims, and its squared norm.
__global__ void translate_kernel(const float* points, std::uint64_t n, unsigned dims, unsigned in_stride,
                                 const float* reference, unsigned out_stride, float* translated, float* norms) {
  const std::uint64_t row = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n) return;
  const float* in = points + row * in_stride;
  float* out = translated + row * out_stride;
  float norm = 0;
  for (unsigned k = 0; k < out_stride; ++k) {
    const float value = k < dims ? in[k] - reference[k] : 0.0f;
    out[k] = value;
    norm = fmaf(value, value, norm);
  }
  norms[row] = norm;
}

// Half index of dimension k's hi part in a row of the layout of CenteredPoints::words; a split lo is
// 4 halves further.
__device__ inline unsigned hi_position(unsigned k, Operands operands) {
  const unsigned in_group = k % 16, t = in_group % 8 / 2, upper = in_group / 8;
  if (operands == Operands::Plain) return k - in_group + 4 * t + 2 * upper + in_group % 2;
  return 2 * (k - in_group + 4 * t + upper) + in_group % 2;
}

// One thread per row: the translated row times `scale`, packed as FP16 operands.
__global__ void pack_kernel(const float* translated, std::uint64_t n, unsigned stride, float scale, Operands operands,
                            __half* halves) {
  const std::uint64_t row = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n) return;
  const float* in = translated + row * stride;
  __half* out = halves + row * 2 * packed_words(stride, operands);
  for (unsigned k = 0; k < stride; ++k) {
    const split_half::Split parts = split_half::split(in[k] * scale);
    out[hi_position(k, operands)] = parts.hi;
    if (operands == Operands::Split) out[hi_position(k, operands) + 4] = parts.lo;
  }
}

struct AbsoluteValue {
  __device__ float operator()(float x) const { return fabsf(x); }
};

void add_sample(const PointSet32& points, std::vector<double>& sum, std::size_t& count) {
  const std::size_t step = std::max<std::size_t>(1, points.size() / kSamplePoints);
  for (std::size_t i = 0; i < points.size(); i += step, ++count)
    for (std::size_t k = 0; k < points.dims(); ++k) sum[k] += points.point(i)[k];
}

}  // namespace

std::vector<float> reference_point(const PointSet32& a, const PointSet32* b) {
  std::vector<double> sum(a.dims(), 0.0);
  std::size_t count = 0;
  add_sample(a, sum, count);
  if (b) add_sample(*b, sum, count);
  std::vector<float> reference(a.dims(), 0.0f);
  if (count > 0)
    for (std::size_t k = 0; k < a.dims(); ++k) reference[k] = float(sum[k] / double(count));
  return reference;
}

std::vector<CenteredPoints> center_points(const std::vector<const DevicePoints*>& sets, std::size_t dims,
                                          const std::vector<float>& reference, float& scale,
                                          const ChooseOperands& choose) {
  const std::size_t stride = (dims + 15) / 16 * 16;
  DeviceBuffer<float> device_reference(dims, "reference point");
  device_reference.upload(reference.data(), dims);
  std::vector<DeviceBuffer<float>> translated;
  std::vector<CenteredPoints> result(sets.size());
  float largest = 0;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    CenteredPoints& out = result[s];
    out.n = sets[s]->n;
    out.stride = stride;
    out.norms = DeviceBuffer<float>(out.n, "point norms");
    translated.emplace_back(out.n * stride, "translated point coordinates");
    if (out.n == 0) continue;
    translate_kernel<<<blocks_for(out.n, kThreads), kThreads>>>(
        sets[s]->coords.data(), out.n, unsigned(dims), unsigned(sets[s]->stride), device_reference.data(),
        unsigned(stride), translated[s].data(), out.norms.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    out.max_norm =
        thrust::reduce(thrust::device, out.norms.data(), out.norms.data() + out.n, 0.0f, thrust::maximum<float>());
    const float* begin = translated[s].data();
    largest = std::max(largest, thrust::transform_reduce(thrust::device, begin, begin + out.n * stride, AbsoluteValue(),
                                                         0.0f, thrust::maximum<float>()));
  }
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest < 2^exponent (exponent 0 for largest 0)
  scale = std::ldexp(1.0f, std::min(kMaxScaleExponent, kLargestExponent - exponent));
  float max_norm = 0;
  for (const CenteredPoints& set : result) max_norm = std::max(max_norm, set.max_norm);
  const std::optional<Operands> operands = choose(max_norm, scale);
  if (!operands) return result;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    CenteredPoints& out = result[s];
    out.operands = *operands;
    out.words =
        DeviceBuffer<std::uint32_t>(out.n * packed_words(unsigned(stride), out.operands), "packed FP16 operands");
    if (out.n == 0) continue;
    pack_kernel<<<blocks_for(out.n, kThreads), kThreads>>>(translated[s].data(), out.n, unsigned(stride), scale,
                                                           out.operands, reinterpret_cast<__half*>(out.words.data()));
    SIMJOIN_CUDA_CHECK_LAUNCH();
  }
  SIMJOIN_CUDA_CHECK(cudaDeviceSynchronize());  // before the translated rows are freed
  return result;
}

}  // namespace simjoin::gpu
