#include "cuda/engines/gpu_lss.hpp"

#include <thrust/execution_policy.h>
#include <thrust/sequence.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/pair_batches.hpp"

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
  double scale = 1, reach = 0;            // reach: the search radius (build_lists says why no wider)
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
    if (before)
      low = mid + 1;
    else
      high = mid;
  }
  return low;
}

// One thread per query: the list with the shortest interval between the cube's corners, then the
// interval's points. A point inside the cube lies between the corners in Z-order in every list.
template <bool kSelf>
__global__ void lss_join_kernel(DeviceLists g, const float* query_points, std::size_t begin, std::size_t end,
                                ExactPairTest test, PairOutput out) {
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

// The d + 1 lists on the current GPU and the buffers behind them.
struct ListIndex {
  DeviceLists lists;
  DeviceBuffer<double> low;
  DeviceBuffer<std::uint32_t> coords, order, shifts;
};

// Builds the lists of `points` (already on the device) as the phase "build". Scale: one factor for
// all dimensions (the cube stays a cube) mapping the joint extent of A and B to kRange.
ListIndex build_lists(GpuRun& run, const DevicePoints& points) {
  const PointSet32& a = *run.inputs.a;
  const std::size_t n = a.size(), d = a.dims();
  const Bounds bounds = joint_bounds(a, run.inputs.b);
  double extent = 0;
  for (std::size_t k = 0; k < d; ++k) extent = std::max(extent, double(bounds.high[k]) - bounds.low[k]);
  ListIndex index;
  DeviceLists& lists = index.lists;
  lists.d = int(d);
  lists.n = n;
  lists.lists = int(d) + 1;
  lists.scale = extent > 0 ? kRange / extent : 1.0;
  // The search radius itself: no margin is needed for the corners' rounding. A pair the exact test
  // can accept has |q_k - p_k| <= s <= search_radius in exact arithmetic on the float32 frame
  // coordinates (core/frame/join_frame.cpp), so q_k <= p_k + r; the corner is
  // quantise(fl(p_k + r)) and the point quantise(q_k), the same function of a double; rounding to
  // nearest is monotone and q_k, a float, is a double, so fl(p_k + r) >= q_k, and every later step
  // (fl(x - low), fl(x * scale) with scale > 0, floor, the clamp, adding the list's shift, which
  // stays below 2^32) is monotone too: the point's quantised coordinates lie between the corners',
  // and a point of the integer box lies between its corners in Z-order (z_less). Likewise p_k - r.
  // (A relative margin of 1e-3 was kept here before; the mutation check found no input it mattered
  // for, and this is why.)
  lists.reach = run.inputs.search_radius;

  Phase build(run, "build");
  const std::vector<double> low(bounds.low.begin(), bounds.low.end());
  index.low = DeviceBuffer<double>(d, "bounds");
  index.low.upload(low.data(), d);
  index.coords = DeviceBuffer<std::uint32_t>(n * d, "quantised points");
  quantise_kernel<<<blocks_for(n * d, kThreads), kThreads>>>(points.coords.data(), n, int(d), index.low.data(),
                                                             lists.scale, index.coords.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  index.order = DeviceBuffer<std::uint32_t>(std::size_t(lists.lists) * n, "Z-order lists");
  std::vector<std::uint32_t> shifts(lists.lists);
  for (int j = 0; j < lists.lists; ++j) shifts[j] = std::uint32_t(kRange * j / lists.lists);
  index.shifts = DeviceBuffer<std::uint32_t>(lists.lists, "list shifts");
  index.shifts.upload(shifts.data(), shifts.size());
  std::size_t temp_bytes = 0;
  ZOrderLess less{index.coords.data(), int(d), 0};
  SIMJOIN_CUDA_CHECK(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, index.order.data(), n, less));
  DeviceBuffer<char> temp(temp_bytes, "sort scratch");
  for (int j = 0; j < lists.lists; ++j) {
    run.control.throw_if_cancelled();
    std::uint32_t* list = index.order.data() + std::size_t(j) * n;
    thrust::sequence(thrust::device, list, list + n);
    less.shift = shifts[j];
    SIMJOIN_CUDA_CHECK(cub::DeviceMergeSort::SortKeys(temp.data(), temp_bytes, list, n, less));
    // One sort at a time, so that a cancel is seen between them rather than after all d + 1.
    SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  }
  lists.coords = index.coords.data();
  lists.order = index.order.data();
  lists.shift = index.shifts.data();
  lists.points = points.coords.data();
  lists.low = index.low.data();
  return index;
}
}  // namespace

std::string GpuLssEngine::description() const {
  return "LSS (Lieberman, Sankaranarayanan & Samet 2008): d + 1 shifted Z-order lists, shortest "
         "eps-cube interval per query, batched overlapped result transfer";
}

void GpuLssEngine::join(GpuRun& run) const {
  RunStats& stats = run.stats();
  const std::size_t n = run.inputs.a->size(), d = run.inputs.a->dims();
  const bool self = run.self();
  const DeviceInputs device = upload_inputs(run.resources, run.inputs, 1, stats, &run.control);
  const ListIndex index = build_lists(run, device.a);
  const DeviceLists& lists = index.lists;
  stats.extra_bytes = n * d * sizeof(std::uint32_t) + index.order.bytes();
  stats.notes.push_back(std::to_string(lists.lists) + " shifted Z-order lists");

  const float* query_points = device.queries().coords.data();
  const BatchPlan plan{
      .wave = kThreads * resident_blocks(reinterpret_cast<const void*>(lss_join_kernel<true>), kThreads, 0),
      .estimate = true};
  PairBatches(run.resources, run.sink, run.params)
      .run(
          run.inputs.queries().size(), plan,
          [&](std::uint64_t begin, std::uint64_t end, const PairOutput& out, cudaStream_t stream) {
            if (self)
              lss_join_kernel<true><<<blocks_for(end - begin, kThreads), kThreads, 0, stream>>>(
                  lists, query_points, begin, end, device.exact.test, out);
            else
              lss_join_kernel<false><<<blocks_for(end - begin, kThreads), kThreads, 0, stream>>>(
                  lists, query_points, begin, end, device.exact.test, out);
          },
          run.control, stats);
}

}  // namespace simjoin::gpu
