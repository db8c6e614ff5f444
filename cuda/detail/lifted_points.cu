#include "cuda/detail/lifted_points.hpp"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include <cstdint>
#include <string>

#include "core/base/error.hpp"
#include "cuda/detail/launch_size.hpp"

namespace simjoin::gpu {

namespace {

// A block lifts kRows rows: its 256 threads are 8 groups of 32, thread (g, p) accumulating row p's
// sums j = g, g + 8, ... of the lifted sums, where sum j < k is the projection onto basis row j and sum k
// the squared norm of u = x - centre. The rows' u and the basis come through shared memory kChunk
// dimensions at a time (a pitch of kChunk + 1 doubles keeps the 32 rows' reads on distinct banks).
constexpr unsigned kRows = 32, kGroups = 8, kThreads = kRows * kGroups, kChunk = 32, kPitch = kChunk + 1;
constexpr unsigned kMaxSums = 128, kSumsPerThread = kMaxSums / kGroups;

struct LiftShared {
  double u[kRows][kPitch];
  double basis[kMaxSums][kPitch];  // reused for the finished sums, kRows x (k + 1)
};

__device__ void stage_chunk(LiftShared& s, const float* frame, std::uint64_t n, unsigned stride, std::uint64_t row0,
                            const double* centre, const double* basis, unsigned k, unsigned dims, unsigned t0) {
  for (unsigned i = threadIdx.x; i < kRows * kChunk; i += kThreads) {
    const unsigned r = i / kChunk, t = t0 + i % kChunk;
    const bool inside = row0 + r < n && t < dims;
    s.u[r][i % kChunk] = inside ? double(frame[(row0 + r) * stride + t]) - centre[t] : 0.0;
  }
  for (unsigned i = threadIdx.x; i < k * kChunk; i += kThreads) {
    const unsigned j = i / kChunk, t = t0 + i % kChunk;
    s.basis[j][i % kChunk] = t < dims ? basis[std::size_t(j) * dims + t] : 0.0;
  }
}

// Row p's residual norm from its finished sums: the sum of the squared projections in order, subtracted
// from the squared norm (lifted_bound.hpp's proof); writes the lifted row and |u|.
__device__ void finish_row(const double* sums, unsigned k, float* out, double* norm) {
  double projected = 0;
  for (unsigned j = 0; j < k; ++j) {
    out[j] = __double2float_rn(sums[j]);
    projected = __dadd_rn(projected, __dmul_rn(sums[j], sums[j]));
  }
  out[k] = __double2float_rn(sqrt(fmax(0.0, __dsub_rn(sums[k], projected))));
  *norm = sqrt(sums[k]);
}

__global__ void __launch_bounds__(kThreads)
    lift_kernel(const float* frame, std::uint64_t n, unsigned stride, unsigned dims, const double* centre,
                const double* basis, unsigned k, float* lifted, double* norms) {
  __shared__ LiftShared s;
  const std::uint64_t row0 = std::uint64_t(blockIdx.x) * kRows;
  const unsigned p = threadIdx.x % kRows, g = threadIdx.x / kRows;
  double acc[kSumsPerThread] = {};
  for (unsigned t0 = 0; t0 < dims; t0 += kChunk) {
    __syncthreads();
    stage_chunk(s, frame, n, stride, row0, centre, basis, k, dims, t0);
    __syncthreads();
    for (unsigned t = 0; t < kChunk; ++t) {
      const double u = s.u[p][t];
#pragma unroll
      for (unsigned o = 0; o < kSumsPerThread; ++o) {
        const unsigned j = g + kGroups * o;
        if (j <= k) acc[o] = fma(j == k ? u : s.basis[j][t], u, acc[o]);
      }
    }
  }
  __syncthreads();
  double* sums = &s.basis[0][0];  // kRows x (k + 1)
#pragma unroll
  for (unsigned o = 0; o < kSumsPerThread; ++o)
    if (g + kGroups * o <= k) sums[p * (k + 1) + g + kGroups * o] = acc[o];
  __syncthreads();
  if (g == 0 && row0 + p < n) finish_row(sums + p * (k + 1), k, lifted + (row0 + p) * (k + 1), norms + row0 + p);
}

}  // namespace

LiftedPoints lift_points(const DevicePoints& frame, const ComponentFilter& filter) {
  const unsigned k = unsigned(filter.k), lifted_dims = unsigned(filter.lifted_dims());
  if (lifted_dims > kMaxSums || lifted_dims % 16 != 0)
    fail(ErrorKind::Internal,
         "lifted rows of " + std::to_string(lifted_dims) + " dimensions (at most 128, a multiple of 16)");
  LiftedPoints result;
  result.points.n = frame.n;
  result.points.stride = lifted_dims;
  result.points.coords = DeviceBuffer<float>(frame.n * lifted_dims, "lifted point coordinates");
  if (frame.n == 0) return result;
  DeviceBuffer<double> centre(filter.dims, "filter centre"), basis(filter.basis.size(), "filter basis");
  DeviceBuffer<double> norms(frame.n, "lifted point norms");
  centre.upload(filter.centre.data(), filter.dims);
  basis.upload(filter.basis.data(), filter.basis.size());
  lift_kernel<<<blocks_for(frame.n, kRows), kThreads>>>(frame.coords.data(), frame.n, unsigned(frame.stride),
                                                        unsigned(filter.dims), centre.data(), basis.data(), k,
                                                        result.points.coords.data(), norms.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  result.max_norm =
      thrust::reduce(thrust::device, norms.data(), norms.data() + frame.n, 0.0, thrust::maximum<double>());
  return result;
}

}  // namespace simjoin::gpu
