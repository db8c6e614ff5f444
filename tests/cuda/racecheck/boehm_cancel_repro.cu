// A minimal copy of gpu-boehm's join kernel (cuda/engines/gpu_boehm.cu) in the shape its racecheck
// case (GpuCancelInsideALaunch.Sanitizer/gpuboehm) runs it: 1-D points in 16 pages, each block of
// 128 queries marks the pages within reach of its bounding box in shared memory, thread 0 publishes a
// host cancel flag into a shared slot, and the block returns on it. Variants tell which part draws
// racecheck's hazards:
//   0  as gpu_boehm.cu: shared slot, return at the flag
//   1  the same, the flag never raised (no block returns early)
//   2  the flag read at a __syncthreads_or barrier (no slot), return at it
//   3  shared slot, break at the flag, then a closing __syncthreads()
//   4  as gpu_boehm.cu now: the gaps computed into a register, a barrier, then marked[] written
//   5  as 0, with 4 unused floats between the box and marked[]
// Found (H100, compute-sanitizer 2025.3.1): variants 0 to 3 each draw the race report of the engine's
// case, a read in box_gap2 against the write of marked[] (variant 0 with --racecheck-report hazard:
// 6,252 "Warp Level Programming" WAR warnings at marked[0], read by lane 15, written by lane 0), the
// flag raised or not. Variants 4 and 5 have not run yet.
// Build: nvcc -O3 -lineinfo -arch=sm_90 -o boehm_cancel_repro boehm_cancel_repro.cu
// Run:   compute-sanitizer --tool racecheck ./boehm_cancel_repro VARIANT
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    const cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kThreads = 128;

struct Directory {
  int d;
  unsigned pages;
  const unsigned* page_begin;
  const float* page_low;
  const float* page_high;
  const float* points;
  double reach2;
};

__device__ double box_gap2(const float* low_a, const float* high_a, const float* low_b, const float* high_b, int d) {
  double sum = 0;
  for (int k = 0; k < d; ++k) {
    const double gap = max(max(double(low_b[k]) - high_a[k], double(low_a[k]) - high_b[k]), 0.0);
    sum += gap * gap;
  }
  return sum;
}

template <int kVariant>
__global__ void join_kernel(Directory g, const float* queries, unsigned n, const volatile unsigned* flag,
                            unsigned long long* found) {
  extern __shared__ float shared[];
  float* box_low = shared;
  float* box_high = shared + g.d;
  int* marked = reinterpret_cast<int*>(shared + 2 * g.d + (kVariant == 5 ? 4 : 0));
  int* stop = marked + blockDim.x;
  const unsigned first = blockIdx.x * blockDim.x, last = min(n, first + blockDim.x);
  const unsigned r = first + threadIdx.x;
  const bool active = r < n;
  for (int k = threadIdx.x; k < g.d; k += blockDim.x) {
    float low = queries[first * g.d + k], high = low;
    for (unsigned q = first + 1; q < last; ++q)
      low = min(low, queries[q * g.d + k]), high = max(high, queries[q * g.d + k]);
    box_low[k] = low;
    box_high[k] = high;
  }
  __syncthreads();
  const float* p = queries + (active ? r : first) * g.d;
  unsigned long long hits = 0;
  for (unsigned chunk = 0; chunk < g.pages; chunk += blockDim.x) {
    const unsigned page = chunk + threadIdx.x;
    const bool within = page < g.pages &&
                        box_gap2(box_low, box_high, g.page_low + page * g.d, g.page_high + page * g.d, g.d) <= g.reach2;
    if (kVariant == 4) __syncthreads();
    marked[threadIdx.x] = within;
    if (kVariant == 2) {
      if (__syncthreads_or(threadIdx.x == 0 && *flag != 0)) return;
    } else {
      if (threadIdx.x == 0) *stop = *flag != 0;
      __syncthreads();
      if (*stop) {
        if (kVariant == 3) break;
        return;
      }
    }
    for (int t = 0; t < blockDim.x && active; ++t) {
      if (!marked[t]) continue;
      const unsigned pg = chunk + t;
      if (box_gap2(p, p, g.page_low + pg * g.d, g.page_high + pg * g.d, g.d) > g.reach2) continue;
      for (unsigned s = g.page_begin[pg]; s < g.page_begin[pg + 1]; ++s) {
        double sum = 0;
        for (int k = 0; k < g.d; ++k) sum += double(p[k] - g.points[s * g.d + k]) * (p[k] - g.points[s * g.d + k]);
        hits += sum <= g.reach2;
      }
    }
    if (kVariant != 4) __syncthreads();
  }
  if (kVariant == 3) __syncthreads();
  if (hits) atomicAdd(found, hits);
}

int main(int argc, char** argv) {
  const int variant = argc > 1 ? std::atoi(argv[1]) : 0;
  const unsigned n = 200000, pages = 16, d = 1;
  std::vector<float> points(n);
  for (unsigned i = 0; i < n; ++i) points[i] = 100.0f * float(i) / float(n);  // sorted, as the directory orders them
  std::vector<unsigned> begin(pages + 1);
  std::vector<float> low(pages), high(pages);
  for (unsigned p = 0; p <= pages; ++p) begin[p] = unsigned(std::uint64_t(n) * p / pages);
  for (unsigned p = 0; p < pages; ++p) low[p] = points[begin[p]], high[p] = points[begin[p + 1] - 1];
  float *d_points, *d_low, *d_high;
  unsigned* d_begin;
  unsigned long long* d_found;
  CHECK(cudaMalloc(&d_points, n * sizeof(float)));
  CHECK(cudaMalloc(&d_low, pages * sizeof(float)));
  CHECK(cudaMalloc(&d_high, pages * sizeof(float)));
  CHECK(cudaMalloc(&d_begin, (pages + 1) * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_found, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_points, points.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_low, low.data(), pages * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_high, high.data(), pages * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_begin, begin.data(), (pages + 1) * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_found, 0, sizeof(unsigned long long)));
  volatile unsigned* host_flag;
  CHECK(cudaHostAlloc((void**)&host_flag, sizeof(unsigned), cudaHostAllocMapped));
  *host_flag = 0;
  unsigned* device_flag;
  CHECK(cudaHostGetDevicePointer((void**)&device_flag, (void*)host_flag, 0));
  const Directory g{int(d), pages, d_begin, d_low, d_high, d_points, 1e-3 * 1e-3};
  const std::size_t shared_bytes = (2 * d + 4) * sizeof(float) + (kThreads + 1) * sizeof(int);
  const unsigned blocks = (n + kThreads - 1) / kThreads;
  const auto start = std::chrono::steady_clock::now();
  switch (variant) {
    case 0:
    case 1:
      join_kernel<0><<<blocks, kThreads, shared_bytes>>>(g, d_points, n, device_flag, d_found);
      break;
    case 2:
      join_kernel<2><<<blocks, kThreads, shared_bytes>>>(g, d_points, n, device_flag, d_found);
      break;
    case 3:
      join_kernel<3><<<blocks, kThreads, shared_bytes>>>(g, d_points, n, device_flag, d_found);
      break;
    case 4:
      join_kernel<4><<<blocks, kThreads, shared_bytes>>>(g, d_points, n, device_flag, d_found);
      break;
    case 5:
      join_kernel<5><<<blocks, kThreads, shared_bytes>>>(g, d_points, n, device_flag, d_found);
      break;
    default:
      std::fprintf(stderr, "variant 0 to 5\n");
      return 2;
  }
  CHECK(cudaGetLastError());
  if (variant != 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    *host_flag = 1;
  }
  CHECK(cudaDeviceSynchronize());
  unsigned long long found = 0;
  CHECK(cudaMemcpy(&found, d_found, sizeof(found), cudaMemcpyDeviceToHost));
  std::printf("variant %d: %llu hits (%s), %.0f ms\n", variant, found, *host_flag ? "cancelled" : "complete",
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
