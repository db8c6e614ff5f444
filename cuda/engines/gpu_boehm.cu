#include "cuda/engines/gpu_boehm.hpp"

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/boehm_directory.hpp"
#include "cuda/detail/device_cancel.cuh"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/pair_batches.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kThreads = 128;

struct DeviceDirectory {
  int d = 0;
  std::uint32_t pages = 0;
  const std::uint32_t* page_begin = nullptr;
  const float* page_low = nullptr;  // pages x d, rotated
  const float* page_high = nullptr;
  const float* points = nullptr;  // n x d, original coordinates, directory order
  const std::uint32_t* order = nullptr;
  double reach2 = 0;  // the search radius squared (join() says why no wider)
  float slack = 0;    // per-coordinate rounding margin of the rotated bounds
};

// A block of queries (consecutive in their order) computes its bounding box, marks the pages within
// reach of it, and each thread then scans the marked pages within reach of its own query.
template <bool kSelf>
__global__ void boehm_join_kernel(DeviceDirectory g, const float* query_rotated, const float* query_points,
                                  const std::uint32_t* query_order, std::size_t begin, std::size_t end,
                                  ExactPairTest test, PairOutput out) {
  extern __shared__ float shared[];
  float* box_low = shared;
  float* box_high = shared + g.d;
  int* marked = reinterpret_cast<int*>(shared + 2 * g.d);
  int* stop = marked + blockDim.x;  // the cancel flag, as thread 0 read it for this chunk
  const std::size_t block_first = begin + std::size_t(blockIdx.x) * blockDim.x;
  const std::size_t block_last = min(end, block_first + blockDim.x);
  const std::size_t r = block_first + threadIdx.x;
  const bool active = r < end;
  for (int k = threadIdx.x; k < g.d; k += blockDim.x) {
    float low = query_rotated[block_first * g.d + k], high = low;
    for (std::size_t q = block_first + 1; q < block_last; ++q) {
      low = min(low, query_rotated[q * g.d + k]);
      high = max(high, query_rotated[q * g.d + k]);
    }
    box_low[k] = low;
    box_high[k] = high;
  }
  __syncthreads();
  const float* own = query_rotated + (active ? r : block_first) * g.d;
  const float* p = query_points + (active ? r : block_first) * g.d;
  const std::uint32_t qid = active ? query_order[r] : 0;
  unsigned long long tests = 0;
  for (std::uint32_t chunk = 0; chunk < g.pages; chunk += blockDim.x) {
    const std::uint32_t page = chunk + threadIdx.x;
    const bool within = page < g.pages && box_gap2(box_low, box_high, g.page_low + std::size_t(page) * g.d,
                                                   g.page_high + std::size_t(page) * g.d, g.d, g.slack) <= g.reach2;
    // The marks are written only after every thread has read the box and the last chunk's marks:
    // racecheck reported reads of marked[0] "in box_gap2" (past the box's end, where its unrolled loop
    // has guarded loads) racing these writes when both shared a barrier interval (docs/testing.md).
    __syncthreads();
    marked[threadIdx.x] = within;
    // The pages within reach of a block may hold many points (d = 2: 256 pages of n / 256 points;
    // d = 1: 16), so a cancel is read at each chunk, the first included: blocks that start after it
    // return at once.
    publish_cancel(out.cancel, stop);
    __syncthreads();
    if (*stop) return;
    for (int t = 0; t < blockDim.x && active; ++t) {
      if (!marked[t]) continue;
      const std::size_t pg = chunk + t;
      if (box_gap2(own, own, g.page_low + pg * g.d, g.page_high + pg * g.d, g.d, g.slack) > g.reach2) continue;
      for (std::uint32_t s = g.page_begin[pg]; s < g.page_begin[pg + 1]; ++s) {
        const std::uint32_t other = g.order[s];
        if (kSelf && other <= qid) continue;  // both points find each other; the smaller id reports
        ++tests;
        // The pair: (smaller id, larger id) for a self-join, (index in A, index in B) otherwise.
        const std::uint32_t i = kSelf ? qid : other, j = kSelf ? other : qid;
        if (test(squared_distance(p, g.points + std::size_t(s) * g.d, g.d, test.band.reject), i, j))
          emit_pair(out, i, j);
      }
    }
  }
  add_compared(out, tests);
}

// A device copy of `host`, after a cancel check: the copies of a large directory take tens of
// milliseconds in all.
template <typename T, typename Allocator>
DeviceBuffer<T> to_device(const std::vector<T, Allocator>& host, const char* what, const RunControl& control) {
  control.throw_if_cancelled();
  DeviceBuffer<T> buffer(host.size(), what);
  if (!host.empty()) buffer.upload(host.data(), host.size());
  return buffer;
}

// The directory on the current GPU as the kernel reads it, with the buffers behind it: the pages, the
// points in directory order and, for A join B, the queries in the same order.
struct DeviceIndex {
  DeviceDirectory g;
  DeviceBuffer<std::uint32_t> page_begin, order, query_order;
  DeviceBuffer<float> page_low, page_high, points, rotated, query_rotated, query_points;
};

// Uploads the directory of `a` (built on the host), its points and the ordered queries.
DeviceIndex upload_directory(const BoehmDirectory& dir, const PointSet32& a, const BoehmQueries& ordered,
                             const RunControl& control) {
  const std::size_t d = a.dims();
  DeviceIndex index;
  index.page_begin = to_device(dir.page_begin, "page offsets", control);
  index.page_low = to_device(dir.page_low, "page bounds", control);
  index.page_high = to_device(dir.page_high, "page bounds", control);
  index.points = to_device(gather_rows(a.data(), dir.order, d, control), "points", control);
  index.order = to_device(dir.order, "directory order", control);
  index.rotated = to_device(dir.rotated, "rotated points", control);
  index.query_rotated = to_device(ordered.rotated, "rotated queries", control);
  index.query_points = to_device(ordered.points, "queries", control);
  index.query_order = to_device(ordered.order, "query order", control);
  DeviceDirectory& g = index.g;
  g.d = int(d);
  g.pages = std::uint32_t(dir.page_begin.size() - 1);
  g.page_begin = index.page_begin.data();
  g.page_low = index.page_low.data();
  g.page_high = index.page_high.data();
  g.points = index.points.data();
  g.order = index.order.data();
  return index;
}
}  // namespace

std::string GpuBoehmEngine::description() const {
  return "Böhm et al. 2009: 3-level quantile directory (fanout 16) on PCA-rotated data, block-wise page "
         "bounds, batched overlapped result transfer";
}

// Why a page holding a pair is within reach of it (join's g.slack and g.reach2). The pair's float32
// frame points p, q have |p - q| <= r (the search radius, core/frame/join_frame.cpp); their rotations y = Q (x - mean)
// are stored off by at most rho <= 2^-24 |y| + (d + 1) d 2^-53 L per coordinate (the float32 store and the float64 sum;
// L = `largest`, the largest rotated magnitude of the set), under 0.07 of the 1e-6 L that the slack allows each point.
// A page's box contains its points' stored values, so each gap box_gap2 computes is at most (|Q (p - q)|_k - x)_+ (1 +
// 2^-51) with x >= 0.93 slack (the float64 subtraction of two floats and of the slack each rounds by 2^-53 relatively).
// For the largest such term G >= |Q (p - q)| / sqrt(d), (G - x)^2 <= G^2 - x G, so the float64 sum is at most |Q (p -
// q)|^2 (1 - x / (sqrt(d) |Q (p - q)|)) (1 + (d + 3) 2^-52), and |Q (p - q)| <= (1 + eta) r with eta under 1e-12 (the
// PCA's axes are orthonormal to float64 rounding). Since |Q (p - q)| <= 2 sqrt(d) L' (L' the larger of the two sets' L)
// and x >= 0.93e-6 L', the relative reduction x / (sqrt(d) |Q (p - q)|) >= 4.6e-7 / d exceeds 2 eta + (d + 5) 2^-52 for
// every d up to kMaxDims: the sum stays below fl(r^2) = r^2 (1 - 2^-53) at worst. So no relative margin on r is needed;
// the slack is: margin_sets.hpp's pairs_rounding_apart_on_both_sides loses about 40 % of its
// pairs without it. (A relative margin of 1e-3 on r was kept here before; no input needed it.)
void GpuBoehmEngine::join(GpuRun& run) const {
  RunStats& stats = run.stats();
  RunControl& control = run.control;
  const PointSet32& a = *run.inputs.a;
  const bool self = run.self();
  const std::size_t d = a.dims();

  Phase build(run, "build");
  const BoehmDirectory dir = build_boehm_directory(a, kLevels, kFanout, control);
  const BoehmQueries ordered = self ? BoehmQueries{} : order_queries(dir, run.inputs.queries(), control);
  control.throw_if_cancelled();
  build.end();
  stats.notes.push_back(std::to_string(dir.page_begin.size() - 1) + " pages (L = " + std::to_string(kLevels) +
                        ", F = " + std::to_string(kFanout) + ") on PCA-rotated data");

  Phase upload(run, "upload");
  DeviceIndex index = upload_directory(dir, a, ordered, control);
  control.throw_if_cancelled();
  const DeviceExact exact = upload_exact(run.resources, run.inputs);
  upload.end();
  stats.extra_bytes = a.size() * (2 * d * sizeof(float) + sizeof(std::uint32_t)) + index.page_low.bytes() * 2;
  DeviceDirectory& g = index.g;
  g.slack = self ? 2 * dir.rounding : dir.rounding + ordered.largest * 1e-6f * float(1 + d / 64);
  const double reach = run.inputs.search_radius;
  g.reach2 = reach * reach;

  const std::size_t shared_bytes = 2 * d * sizeof(float) + (kThreads + 1) * sizeof(int);
  const BatchPlan plan{.wave = kThreads * resident_blocks(reinterpret_cast<const void*>(boehm_join_kernel<true>),
                                                          kThreads, shared_bytes),
                       .estimate = true,
                       .reads_cancel = true};
  PairBatches(run.resources, run.sink, run.params)
      .run(
          run.inputs.queries().size(), plan,
          [&](std::uint64_t begin, std::uint64_t end, const PairOutput& out, cudaStream_t stream) {
            const unsigned blocks = blocks_for(end - begin, kThreads);
            if (self)
              boehm_join_kernel<true><<<blocks, kThreads, shared_bytes, stream>>>(
                  g, index.rotated.data(), index.points.data(), index.order.data(), begin, end, exact.test, out);
            else
              boehm_join_kernel<false>
                  <<<blocks, kThreads, shared_bytes, stream>>>(g, index.query_rotated.data(), index.query_points.data(),
                                                               index.query_order.data(), begin, end, exact.test, out);
          },
          control, stats);
}

}  // namespace simjoin::gpu
