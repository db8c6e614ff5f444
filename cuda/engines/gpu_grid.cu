#include "cuda/engines/gpu_grid.hpp"

#include <thrust/execution_policy.h>
#include <thrust/sequence.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <future>
#include <utility>

#include "core/numeric/numeric_rules.hpp"
#include "cuda/detail/device_cancel.cuh"
#include "cuda/detail/grid_layout.hpp"
#include "cuda/detail/launch_size.hpp"
#include "cuda/detail/multi_device.hpp"
#include "cuda/detail/pair_batches.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kThreads = 256;
// A thread's tests between two reads of the cancel flag (a power of two): well under a millisecond.
constexpr std::uint32_t kTestsPerCancelCheck = 4096;
// Masks are kept for dimensions of at most this many cells (16 MiB of bits); wider ones are unmasked.
constexpr std::uint64_t kMaxMaskCells = std::uint64_t(1) << 27;

// The grid as the kernels see it (passed by value).
struct DeviceGrid {
  int k = 0, d = 0;
  double width = 1;
  int dims[kMaxIndexedDims] = {};
  double origin[kMaxIndexedDims] = {};
  long long cells[kMaxIndexedDims] = {};             // coordinates lie in [0, cells)
  const std::uint32_t* masks[kMaxIndexedDims] = {};  // occupied cell coordinates; null: not kept
  const std::int64_t* cell_coords = nullptr;         // B: k per cell, sorted (grid_cell_order.hpp)
  const std::uint32_t* cell_begin = nullptr;         // G: cell t holds sorted positions [begin[t], begin[t+1])
  std::uint32_t cell_count = 0;
  const float* points = nullptr;         // the indexed set, sorted by cell
  const std::uint32_t* order = nullptr;  // A: point id at each sorted position
};

// A point set sorted by cell.
struct SortedPoints {
  DeviceBuffer<float> coords;
  DeviceBuffer<std::uint32_t> order;
};

// Slots [first, last) of the cell coordinates as one radix-sort key (cell_key).
struct KeyRange {
  int first = 0, last = 0, bits[kMaxIndexedDims] = {};
};

__device__ void cell_of(const DeviceGrid& g, const float* p, std::int64_t* c) {
  for (int j = 0; j < g.k; ++j) c[j] = grid_cell_coord(p[g.dims[j]], g.origin[j], g.width, g.cells[j]);
}

// The key of point index[i]'s cell in the slots of `range`.
__global__ void cell_key_kernel(DeviceGrid g, KeyRange range, const float* points, const std::uint32_t* index,
                                std::size_t n, unsigned long long* keys) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::int64_t c[kMaxIndexedDims];
  cell_of(g, points + std::size_t(index[i]) * g.d, c);
  keys[i] = cell_key(c, range.first, range.last, range.bits);
}

// 1 where sorted point i starts a new cell.
__global__ void cell_start_kernel(DeviceGrid g, const float* sorted, std::size_t n, std::uint32_t* start) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::int64_t c[kMaxIndexedDims], before[kMaxIndexedDims];
  cell_of(g, sorted + i * g.d, c);
  bool differs = i == 0;
  if (!differs) {
    cell_of(g, sorted + (i - 1) * g.d, before);
    for (int j = 0; j < g.k; ++j) differs = differs || c[j] != before[j];
  }
  start[i] = differs;
}

// B and G from the cell starts and their inclusive sum (the cell number + 1 of each sorted point).
__global__ void cell_list_kernel(DeviceGrid g, const float* sorted, std::size_t n, const std::uint32_t* start,
                                 const std::uint32_t* number, std::int64_t* cell_coords, std::uint32_t* cell_begin) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == n - 1) cell_begin[number[i]] = std::uint32_t(n);
  if (!start[i]) return;
  const std::uint32_t t = number[i] - 1;
  cell_begin[t] = std::uint32_t(i);
  std::int64_t c[kMaxIndexedDims];
  cell_of(g, sorted + i * g.d, c);
  for (int j = 0; j < g.k; ++j) cell_coords[std::size_t(t) * g.k + j] = c[j];
}

__global__ void gather_kernel(const float* points, const std::uint32_t* order, std::size_t n, int d, float* out) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n * d) return;
  const std::size_t r = t / d, k = t % d;
  out[t] = points[std::size_t(order[r]) * d + k];
}

__global__ void mask_kernel(DeviceGrid g, std::uint32_t* const* masks) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= g.cell_count) return;
  for (int j = 0; j < g.k; ++j) {
    if (!masks[j]) continue;
    const std::int64_t c = g.cell_coords[std::size_t(t) * g.k + j];
    atomicOr(masks[j] + c / 32, 1u << (c % 32));
  }
}

// Sorted positions [begin, end) of the points in the cells (x, c[1], ..., c[k-1]), low <= x <= high.
__device__ void row_range(const DeviceGrid& g, const std::int64_t* c, std::int64_t low, std::int64_t high,
                          std::uint32_t& begin, std::uint32_t& end) {
  std::uint32_t first = 0, last = 0;
  cell_run(g.cell_coords, g.cell_count, g.k, c, low, high, first, last);
  begin = g.cell_begin[first];
  end = g.cell_begin[last];
}

// Tests the query at sorted position r (point p, id qid) against sorted positions [from, to) and emits
// its pairs; returns the tests made. Unicomp's own row skips positions from own_from up to r.
template <bool kSelf, bool kUnicomp>
__device__ unsigned test_positions(const DeviceGrid& g, const float* p, std::uint32_t qid, std::size_t r,
                                   std::uint32_t from, std::uint32_t to, std::uint32_t own_from,
                                   const ExactPairTest& test, const PairOutput& out) {
  unsigned tests = 0;
  for (std::uint32_t s = from; s < to; ++s) {
    if (kSelf && (kUnicomp ? s >= own_from && s <= r : s == r)) continue;
    ++tests;
    const std::uint32_t other = g.order[s];
    if (!test(squared_distance(p, g.points + std::size_t(s) * g.d, g.d, test.band.reject), other, qid)) continue;
    if (kSelf) {
      if (!kUnicomp && qid > other) continue;  // found from both sides; keep one
      emit_pair(out, min(qid, other), max(qid, other));
    } else {
      emit_pair(out, other, qid);
    }
  }
  return tests;
}

// One thread per query (queries sorted by cell, so a warp mostly shares its cells). The neighbour
// cells are visited as rows of three cells along dims[0], adjacent in the cells' order: one binary
// search per row, and the row's points are one contiguous range of the sorted order.
// unicomp (self-join): a row whose last non-zero offset is in dimension m is searched only when the
// query's own coordinate there is odd; the own row's side cells only when its coordinate in dims[0]
// is odd; inside the own cell only later sorted positions. Each pair is then tested exactly once.
// A launch is at least one wave of the GPU, which on millions of points in dense cells outlasts the
// 100 ms a cancel may take: each thread reads the cancel flag every few thousand of its tests. Five
// blocks a multiprocessor keep it at 48 registers, as it was before those reads.
template <bool kSelf, bool kUnicomp>
__global__ void __launch_bounds__(kThreads, 5)
    join_kernel(DeviceGrid g, const float* query_points, const std::uint32_t* query_order, std::size_t begin,
                std::size_t end, ExactPairTest test, PairOutput out) {
  const std::size_t r = begin + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long tests = 0;
  bool stopped = false;
  if (r < end) {
    const float* p = query_points + r * g.d;
    const std::uint32_t qid = query_order[r];
    std::int64_t c[kMaxIndexedDims];
    cell_of(g, p, c);
    const std::int64_t c0 = g.k > 0 ? c[0] : 0;
    std::uint32_t own_begin = 0, own_end = 0;
    if (kSelf && kUnicomp) row_range(g, c, c0, c0, own_begin, own_end);
    int rows = 1;
    for (int j = 1; j < g.k; ++j) rows *= 3;
    for (int row = 0; row < rows; ++row) {
      int rest = row, last = -1;
      bool skip = false;
      std::int64_t centre[kMaxIndexedDims];
      centre[0] = c0;
      for (int j = 1; j < g.k; ++j) {
        const int offset = rest % 3 - 1;
        rest /= 3;
        const std::int64_t nc = c[j] + offset;
        if (nc < 0 || nc >= g.cells[j] || (g.masks[j] && !(g.masks[j][nc / 32] & (1u << (nc % 32))))) {
          skip = true;
          break;
        }
        if (offset) last = j;
        centre[j] = nc;
      }
      if (skip) continue;
      std::int64_t lo = c0 - 1, hi = c0 + 1;
      if (kSelf && kUnicomp) {
        if (last >= 0 && !(c[last] & 1)) continue;
        if (last < 0 && !(c0 & 1)) lo = hi = c0;
      }
      std::uint32_t s_begin = 0, s_end = 0;
      row_range(g, centre, lo, hi, s_begin, s_end);
      const std::uint32_t own_from = kUnicomp && last < 0 ? own_begin : UINT32_MAX;
      // In segments, so that a thread in a row of millions of points (duplicates) still reads the flag.
      // A thread that saw it raised runs out its loops without work: an early exit from them kept the
      // lanes of a warp from meeting again, and W3's joins took twice as long.
      for (std::uint32_t from = s_begin, to; from < s_end; from = to) {  // to: never past s_end, so no wrap
        to = s_end - from > kTestsPerCancelCheck ? from + kTestsPerCancelCheck : s_end;
        if (stopped) continue;
        const unsigned long long before = tests;
        tests += test_positions<kSelf, kUnicomp>(g, p, qid, r, from, to, own_from, test, out);
        stopped = (before ^ tests) >= kTestsPerCancelCheck && raised(out.cancel);  // passed a multiple of it
      }
    }
  }
  add_compared(out, tests);
}

// Sorts the uploaded points (consumed) by cell: a stable radix sort by each key range in turn, the
// least significant slots first (cell_key_ranges), so the cells end up sorted as tuples.
SortedPoints sort_by_cell(DeviceBuffer<float> raw, std::size_t n, std::size_t d, const DeviceGrid& grid,
                          const std::vector<KeyRange>& ranges) {
  DeviceBuffer<unsigned long long> keys(n, "cell keys"), sorted_keys(n, "sorted cell keys");
  DeviceBuffer<std::uint32_t> index(n, "point index"), sorted_index(n, "point order");
  thrust::sequence(thrust::device, index.data(), index.data() + n);
  for (const KeyRange& range : ranges) {
    int bits = 0;
    for (int j = range.first; j < range.last; ++j) bits += range.bits[j];
    cell_key_kernel<<<blocks_for(n, kThreads), kThreads>>>(grid, range, raw.data(), index.data(), n, keys.data());
    SIMJOIN_CUDA_CHECK_LAUNCH();
    std::size_t temp_bytes = 0;
    SIMJOIN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.data(), sorted_keys.data(),
                                                       index.data(), sorted_index.data(), n, 0, std::max(bits, 1)));
    DeviceBuffer<char> temp(temp_bytes, "sort scratch");
    SIMJOIN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys.data(), sorted_keys.data(),
                                                       index.data(), sorted_index.data(), n, 0, std::max(bits, 1)));
    std::swap(index, sorted_index);
  }
  SortedPoints sorted{DeviceBuffer<float>(n * d, "sorted points"), std::move(index)};
  gather_kernel<<<blocks_for(n * d, kThreads), kThreads>>>(raw.data(), sorted.order.data(), n, d, sorted.coords.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  return sorted;
}

// The grid index of A on one GPU: the grid as the kernels see it, the buffers behind it, A sorted by
// cell and, for A-join-B, the queries sorted by cell; the file's values for the exact test.
struct GridIndex {
  DeviceGrid grid;
  SortedPoints index, query_set;
  DeviceBuffer<std::int64_t> cell_coords;
  DeviceBuffer<std::uint32_t> cell_begin;
  std::vector<DeviceBuffer<std::uint32_t>> masks;
  DeviceExact exact;
};

// The grid's shape as the kernels see it: indexed dimensions, origin, cell width and cell counts.
void shape_grid(DeviceGrid& grid, const GridLayout& layout, std::size_t d) {
  grid.k = int(layout.dims.size());
  grid.d = int(d);
  grid.width = layout.cell_width;
  for (int j = 0; j < grid.k; ++j) {
    grid.dims[j] = layout.dims[j];
    grid.origin[j] = layout.origin[j];
    grid.cells[j] = (long long)layout.cells[j];
  }
}

// The ranges of the cells' sort keys, with the bits each indexed dimension takes in a key.
std::vector<KeyRange> sort_key_ranges(const GridLayout& layout, int k) {
  std::vector<int> bits(k);
  for (int j = 0; j < k; ++j) bits[j] = int(std::bit_width(layout.cells[j] - 1));
  std::vector<KeyRange> ranges;
  for (const auto& [first, last] : cell_key_ranges(bits)) {
    KeyRange range{first, last};
    std::copy(bits.begin(), bits.end(), range.bits);
    ranges.push_back(range);
  }
  return ranges;
}

// B (the distinct cells' coordinates) and G (their first sorted positions) of the n sorted points of
// A: an inclusive sum over the cell starts numbers the cells. Returns the number of cells.
std::uint32_t list_cells(GridIndex& out, std::size_t n) {
  DeviceGrid& grid = out.grid;
  DeviceBuffer<std::uint32_t> starts(n, "cell starts"), numbers(n, "cell numbers");
  cell_start_kernel<<<blocks_for(n, kThreads), kThreads>>>(grid, out.index.coords.data(), n, starts.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  std::size_t temp_bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, starts.data(), numbers.data(), n));
  DeviceBuffer<char> scan_temp(temp_bytes, "scan scratch");
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scan_temp.data(), temp_bytes, starts.data(), numbers.data(), n));
  std::uint32_t cells_found = 0;
  SIMJOIN_CUDA_CHECK(cudaMemcpy(&cells_found, numbers.data() + n - 1, sizeof cells_found, cudaMemcpyDeviceToHost));
  out.cell_coords = DeviceBuffer<std::int64_t>(std::size_t(cells_found) * grid.k, "cell coordinates (B)");
  out.cell_begin = DeviceBuffer<std::uint32_t>(cells_found + 1, "cell offsets (G)");
  cell_list_kernel<<<blocks_for(n, kThreads), kThreads>>>(
      grid, out.index.coords.data(), n, starts.data(), numbers.data(), out.cell_coords.data(), out.cell_begin.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  grid.cell_coords = out.cell_coords.data();
  grid.cell_begin = out.cell_begin.data();
  grid.cell_count = cells_found;
  grid.points = out.index.coords.data();
  grid.order = out.index.order.data();
  return cells_found;
}

// M: which cell coordinates are occupied, per indexed dimension (dims[0] is searched as rows).
void mask_cells(GridIndex& out, const GridLayout& layout, std::uint32_t cells_found) {
  DeviceGrid& grid = out.grid;
  out.masks.resize(grid.k);
  std::uint32_t* mask_pointers[kMaxIndexedDims] = {};
  for (int j = 1; j < grid.k; ++j) {
    if (layout.cells[j] > kMaxMaskCells) continue;
    const std::size_t words = (layout.cells[j] + 31) / 32;
    out.masks[j] = DeviceBuffer<std::uint32_t>(words, "cell masks (M)");
    SIMJOIN_CUDA_CHECK(cudaMemset(out.masks[j].data(), 0, words * sizeof(std::uint32_t)));
    mask_pointers[j] = out.masks[j].data();
  }
  DeviceBuffer<std::uint32_t*> mask_table(kMaxIndexedDims, "mask table");
  mask_table.upload(mask_pointers, kMaxIndexedDims);
  mask_kernel<<<blocks_for(cells_found, kThreads), kThreads>>>(grid, mask_table.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  for (int j = 0; j < grid.k; ++j) grid.masks[j] = mask_pointers[j];
}

// Builds the index on the current GPU; adds the phases "upload" and "build" to stats.
GridIndex build_index(GpuResources& resources, const JoinInputs& inputs, const GridLayout& layout, RunStats& stats) {
  const PointSet32& a = *inputs.a;
  const bool self = inputs.self_join();
  GridIndex out;
  DeviceGrid& grid = out.grid;
  shape_grid(grid, layout, a.dims());
  const std::vector<KeyRange> ranges = sort_key_ranges(layout, grid.k);

  DeviceInputs device = upload_inputs(resources, inputs, 1, stats);
  out.exact = std::move(device.exact);

  Phase build(stats, "build");
  out.index = sort_by_cell(std::move(device.a.coords), a.size(), a.dims(), grid, ranges);
  if (!self) out.query_set = sort_by_cell(std::move(device.b.coords), inputs.queries().size(), a.dims(), grid, ranges);
  const std::size_t n = a.size();
  const std::uint32_t cells_found = list_cells(out, n);
  mask_cells(out, layout, cells_found);
  // Sorted copy of the points, order, B and G.
  stats.extra_bytes = n * (sizeof(float) * a.dims() + sizeof(std::uint32_t)) +
                      cells_found * (sizeof(std::int64_t) * grid.k + sizeof(std::uint32_t));
  return out;
}

void fill_structure(GridStructure& out, const GridLayout& layout, const DeviceGrid& grid, std::size_t n, bool unicomp) {
  out.cell_width = layout.cell_width;
  out.indexed_dims = layout.dims;
  out.origin = layout.origin;
  out.unicomp = unicomp;
  out.cell_coords.resize(std::size_t(grid.cell_count) * grid.k);
  std::vector<std::uint32_t> begin(grid.cell_count + 1);
  out.point_order.resize(n);
  SIMJOIN_CUDA_CHECK(cudaMemcpy(out.cell_coords.data(), grid.cell_coords, out.cell_coords.size() * sizeof(std::int64_t),
                                cudaMemcpyDeviceToHost));
  SIMJOIN_CUDA_CHECK(
      cudaMemcpy(begin.data(), grid.cell_begin, begin.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  SIMJOIN_CUDA_CHECK(cudaMemcpy(out.point_order.data(), grid.order, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  out.cell_begin.assign(begin.begin(), begin.end() - 1);
  out.cell_end.assign(begin.begin() + 1, begin.end());
}

// Share `s` of the queries, in cell order, joined on the current GPU (devices[s]), which builds the
// whole index first; its stats go to `share`.
void join_share(GpuRun& run, const GridLayout& layout, std::size_t s, SharedProgress& progress, RunStats& share) {
  const JoinInputs& inputs = run.inputs;
  const bool self = run.self();
  const bool unicomp = run.params.unicomp;
  const std::size_t n = inputs.a->size();
  const GridIndex index = build_index(run.resources, inputs, layout, share);
  const ExactPairTest test = index.exact.test;
  if (s == 0) share.notes.push_back(std::to_string(index.grid.cell_count) + " non-empty cells");
  const DeviceGrid& grid = index.grid;
  const float* query_points = self ? index.index.coords.data() : index.query_set.coords.data();
  const std::uint32_t* query_order = self ? index.index.order.data() : index.query_set.order.data();
  // The grid for the views (cheap next to the join up to a few million points) is copied to the host
  // on a thread of its own while the join runs; the launches use non-blocking streams.
  std::future<double> structure;
  if (s == 0 && run.params.structures && n <= 2'000'000)
    structure = std::async(std::launch::async, [&, device = run.devices[s]] {
      SIMJOIN_CUDA_CHECK(cudaSetDevice(device));
      const auto start = std::chrono::steady_clock::now();
      GridStructure out;
      fill_structure(out, layout, grid, n, unicomp);
      run.result.grid = std::move(out);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
  const auto [first, last] = share_range(inputs.queries().size(), s, run.devices.size());
  const BatchPlan plan{
      .wave = kThreads * resident_blocks(reinterpret_cast<const void*>(join_kernel<true, true>), kThreads, 0),
      .estimate = true};
  PairBatches(run.resources, run.sink, run.params)
      .run(
          first, last, plan,
          [&](std::uint64_t begin, std::uint64_t end, const PairOutput& out, cudaStream_t stream) {
            const unsigned blocks = blocks_for(end - begin, kThreads);
            if (!self)
              join_kernel<false, false>
                  <<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end, test, out);
            else if (unicomp)
              join_kernel<true, true>
                  <<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end, test, out);
            else
              join_kernel<true, false>
                  <<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end, test, out);
          },
          progress, share);
  if (structure.valid()) {
    const double seconds = structure.get();  // not a phase: it overlaps the join
    share.notes.push_back("grid structure copied to the host beside the join in " +
                          std::to_string(int(seconds * 1e3 + 0.5)) + " ms");
  }
}
}  // namespace

std::string GpuGridEngine::description() const {
  return "GPU-SJ (Gowanlock & Karsin 2018): epsilon-grid of non-empty cells built on the GPU, "
         "adjacent-cell search with unicomp, batched overlapped result transfer";
}

void GpuGridEngine::join(GpuRun& run) const {
  const PointSet32& a = *run.inputs.a;
  const std::vector<int>& devices = run.devices;
  RunStats& stats = run.stats();
  run.control.set_phase("build");
  const GridLayout layout =
      choose_grid_layout(joint_bounds(a, run.inputs.b), bulk_bounds(a), a.size(), run.inputs.search_radius);
  stats.notes.insert(stats.notes.end(), layout.notes.begin(), layout.notes.end());
  if (devices.size() > 1)
    stats.notes.push_back("queries split into " + std::to_string(devices.size()) +
                          " equal shares of the cell order, one per GPU; each GPU builds the whole index");
  std::vector<RunStats> shares(devices.size());
  SharedProgress progress(run.control, double(run.inputs.queries().size()));
  on_each_device(devices, progress, [&](std::size_t s) { join_share(run, layout, s, progress, shares[s]); });
  merge_share_stats(devices, shares, stats);
}

}  // namespace simjoin::gpu
