#include "cuda/lss_engine.hpp"

#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>

#include "cuda/exact_device.hpp"
#include "cuda/index_device.cuh"
#include "cuda/launch_size.hpp"
#include "cuda/multi_device.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kThreads = 256;
// Quantised coordinates span [0, kRange]; shifts add less than kRange, so all fit in 31 bits.
constexpr double kRange = double(1u << 29);

// The quantisation shared by points and cube corners: floor((x - low) * scale), clamped into
// [0, 2 kRange] (cube corners may lie outside the data).
__host__ __device__ inline std::uint32_t quantise(double x, double low, double scale) {
  const double v = floor((x - low) * scale);
  return std::uint32_t(v < 0 ? 0 : (v > 2 * kRange ? 2 * kRange : v));
}

// The Z-order of two integer points without materialised keys: the dimension whose coordinates'
// XOR has the highest set bit decides.
template <typename A, typename B>
__device__ bool z_less(const A& a, const B& b, int d) {
  std::uint32_t top = 0;
  int decisive = 0;
  for (int k = 0; k < d; ++k) {
    const std::uint32_t x = a(k) ^ b(k);
    if (top < x && top < (top ^ x)) {  // x has a higher most significant bit than top
      top = x;
      decisive = k;
    }
  }
  return a(decisive) < b(decisive);
}

struct DeviceLists {
  int d = 0, lists = 0;
  std::size_t n = 0;
  const std::uint32_t* coords = nullptr;  // quantised, n x d, unshifted
  const std::uint32_t* order = nullptr;   // lists x n point ids in shifted Z-order
  const std::uint32_t* shift = nullptr;   // per list
  const float* points = nullptr;          // n x d, input order
  const double* low = nullptr;            // per dimension
  double scale = 1, reach = 0;            // reach: the search radius widened against the corners' rounding
};

// Orders point ids by the Z-order of their coordinates shifted by `shift`.
struct ZOrderLess {
  const std::uint32_t* coords;
  int d;
  std::uint32_t shift;
  __device__ bool operator()(std::uint32_t x, std::uint32_t y) const {
    const std::uint32_t* a = coords + std::size_t(x) * d;
    const std::uint32_t* b = coords + std::size_t(y) * d;
    return z_less([&](int k) { return a[k] + shift; }, [&](int k) { return b[k] + shift; }, d);
  }
};

__global__ void quantise_kernel(const float* points, std::size_t n, int d, const double* low, double scale,
                                std::uint32_t* out) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n * d) out[t] = quantise(points[t], low[t % d], scale);
}

__global__ void iota_kernel(std::uint32_t* out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = std::uint32_t(i);
}

// First position of list `list` whose point is not Z-before the corner (upper = false), or whose
// point is Z-after the corner (upper = true). The corner is p -/+ reach, quantised and shifted.
__device__ std::size_t search_corner(const DeviceLists& g, int list, const float* p, bool upper) {
  const std::uint32_t* order = g.order + std::size_t(list) * g.n;
  const std::uint32_t shift = g.shift[list];
  const double reach = upper ? g.reach : -g.reach;
  const auto corner = [&](int k) { return quantise(double(p[k]) + reach, g.low[k], g.scale) + shift; };
  std::size_t low = 0, high = g.n;
  while (low < high) {
    const std::size_t mid = (low + high) / 2;
    const std::uint32_t* q = g.coords + std::size_t(order[mid]) * g.d;
    const auto point = [&](int k) { return q[k] + shift; };
    const bool before = upper ? !z_less(corner, point, g.d) : z_less(point, corner, g.d);
    if (before) low = mid + 1; else high = mid;
  }
  return low;
}

// One thread per query: the list with the shortest interval between the cube's corners, then the
// interval's points. A point inside the cube lies between the corners in Z-order in every list.
template <bool kSelf>
__global__ void lss_join_kernel(DeviceLists g, const float* query_points, std::size_t begin, std::size_t end,
                                ExactPairTest test, BatchOutput out) {
  const std::size_t r = begin + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long tests = 0;
  if (r < end) {
    // Self-join queries follow list 0, so a warp's queries are close in space.
    const std::uint32_t qid = kSelf ? g.order[r] : std::uint32_t(r);
    const float* p = query_points + std::size_t(qid) * g.d;
    std::size_t best_begin = 0, best_end = g.n;
    int best_list = 0;
    for (int list = 0; list < g.lists && best_end > best_begin; ++list) {
      const std::size_t first = search_corner(g, list, p, false);
      const std::size_t last = search_corner(g, list, p, true);
      if (last - first < best_end - best_begin || list == 0) {
        best_begin = first;
        best_end = max(first, last);
        best_list = list;
      }
    }
    const std::uint32_t* order = g.order + std::size_t(best_list) * g.n;
    for (std::size_t t = best_begin; t < best_end; ++t) {
      const std::uint32_t other = order[t];
      if (kSelf && other <= qid) continue;  // both points find each other; the smaller id reports
      ++tests;
      // The pair: (smaller id, larger id) for a self-join, (index in A, index in B) otherwise.
      const std::uint32_t i = kSelf ? qid : other, j = kSelf ? other : std::uint32_t(r);
      if (test(squared_distance(p, g.points + std::size_t(other) * g.d, g.d, test.band.reject), i, j))
        emit_pair(out, i, j);
    }
  }
  add_compared(out, tests);
}

}  // namespace

std::string GpuLssEngine::description() const {
  return "LSS (Lieberman, Sankaranarayanan & Samet 2008): d + 1 shifted Z-order lists, shortest "
         "eps-cube interval per query, batched overlapped result transfer";
}

RunResult GpuLssEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                            RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  stats.device = select_device(params);
  const PointSet32& a = *inputs.a;
  const PointSet32& queries = inputs.queries();
  const bool self = inputs.self_join();
  if (a.empty() || queries.empty()) return result;
  const std::size_t n = a.size(), d = a.dims();
  control.set_phase("build");

  // Scale: one factor for all dimensions (the cube stays a cube) mapping the joint extent to kRange.
  Bounds bounds = compute_bounds(a);
  if (!self) {
    const Bounds other = compute_bounds(queries);
    for (std::size_t k = 0; k < d; ++k) {
      bounds.low[k] = std::min(bounds.low[k], other.low[k]);
      bounds.high[k] = std::max(bounds.high[k], other.high[k]);
    }
  }
  double extent = 0;
  for (std::size_t k = 0; k < d; ++k) extent = std::max(extent, double(bounds.high[k]) - bounds.low[k]);
  DeviceLists lists;
  lists.d = int(d);
  lists.n = n;
  lists.lists = int(d) + 1;
  lists.scale = extent > 0 ? kRange / extent : 1.0;
  // params.eps is the frame's search radius; 1e-3 relative covers the rounding of the cube's corners.
  lists.reach = params.eps * (1 + 1e-3);

  EventTimer upload_timer;
  DeviceBuffer<float> points(n * d, "points");
  points.upload(a.data(), n * d);
  DeviceBuffer<float> query_points;
  if (!self) {
    query_points = DeviceBuffer<float>(queries.size() * d, "query points");
    query_points.upload(queries.data(), queries.size() * d);
  }
  const std::vector<double> low(bounds.low.begin(), bounds.low.end());
  DeviceBuffer<double> device_low(d, "bounds");
  device_low.upload(low.data(), d);
  const DeviceExact exact = upload_exact(inputs);
  stats.add_phase("upload", upload_timer.seconds());

  EventTimer build_timer;
  DeviceBuffer<std::uint32_t> coords(n * d, "quantised points");
  quantise_kernel<<<blocks_for(n * d, kThreads), kThreads>>>(points.data(), n, int(d), device_low.data(), lists.scale,
                                                   coords.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  DeviceBuffer<std::uint32_t> order(std::size_t(lists.lists) * n, "Z-order lists");
  std::vector<std::uint32_t> shifts(lists.lists);
  for (int j = 0; j < lists.lists; ++j) shifts[j] = std::uint32_t(kRange * j / lists.lists);
  DeviceBuffer<std::uint32_t> device_shifts(lists.lists, "list shifts");
  device_shifts.upload(shifts.data(), shifts.size());
  std::size_t temp_bytes = 0;
  ZOrderLess less{coords.data(), int(d), 0};
  SIMJOIN_CUDA_CHECK(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, order.data(), n, less));
  DeviceBuffer<char> temp(temp_bytes, "sort scratch");
  for (int j = 0; j < lists.lists; ++j) {
    control.throw_if_cancelled();
    std::uint32_t* list = order.data() + std::size_t(j) * n;
    iota_kernel<<<blocks_for(n, kThreads), kThreads>>>(list, n);
    SIMJOIN_CUDA_CHECK_LAUNCH();
    less.shift = shifts[j];
    SIMJOIN_CUDA_CHECK(cub::DeviceMergeSort::SortKeys(temp.data(), temp_bytes, list, n, less));
    // One sort at a time, so that a cancel is seen between them rather than after all d + 1.
    SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  }
  stats.add_phase("build", build_timer.seconds());
  SIMJOIN_CUDA_CHECK(cudaDeviceSynchronize());  // the batches run on their own non-blocking streams
  lists.coords = coords.data();
  lists.order = order.data();
  lists.shift = device_shifts.data();
  lists.points = points.data();
  lists.low = device_low.data();
  stats.extra_bytes = n * d * sizeof(std::uint32_t) + order.bytes();
  stats.notes.push_back(std::to_string(lists.lists) + " shifted Z-order lists");

  const LaunchBatch launch = [&](std::size_t begin, std::size_t end, const BatchOutput& out, cudaStream_t stream) {
    if (self)
      lss_join_kernel<true><<<blocks_for(end - begin, kThreads), kThreads, 0, stream>>>(lists, points.data(), begin, end,
                                                                              exact.test, out);
    else
      lss_join_kernel<false><<<blocks_for(end - begin, kThreads), kThreads, 0, stream>>>(lists, query_points.data(), begin, end,
                                                                               exact.test, out);
  };
  batchers_.on(current_device()).run(queries.size(), self ? n - 1 : n, params.batch_bytes, sink, control, launch, stats);
  return result;
}

}  // namespace simjoin::gpu
