#include "cuda/grid_engine.hpp"

#include <cub/cub.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <future>

#include "cuda/exact_device.hpp"
#include "cuda/grid_layout.hpp"
#include "cuda/index_device.cuh"
#include "cuda/launch_size.hpp"
#include "cuda/multi_device.hpp"

namespace simjoin::gpu {

namespace {
constexpr int kThreads = 256;
// Masks are kept for dimensions of at most this many cells (16 MiB of bits); wider ones are unmasked.
constexpr std::uint64_t kMaxMaskCells = std::uint64_t(1) << 27;

// The grid as the kernels see it (passed by value).
struct DeviceGrid {
  int k = 0, d = 0;
  double width = 1;
  int dims[kMaxIndexedDims] = {};
  double origin[kMaxIndexedDims] = {};
  long long cells[kMaxIndexedDims] = {};
  unsigned long long strides[kMaxIndexedDims] = {};
  const std::uint32_t* masks[kMaxIndexedDims] = {};  // occupied cell coordinates; null: not kept
  const unsigned long long* cell_ids = nullptr;       // B
  const std::uint32_t* cell_begin = nullptr;          // G: cell t holds sorted positions [begin[t], begin[t+1])
  std::uint32_t cell_count = 0;
  const float* points = nullptr;                      // the indexed set, sorted by cell
  const std::uint32_t* order = nullptr;               // A: point id at each sorted position
};

// A point set sorted by cell id.
struct SortedPoints {
  DeviceBuffer<float> coords;
  DeviceBuffer<std::uint32_t> order;
  DeviceBuffer<unsigned long long> ids;
};

__device__ unsigned long long cell_of(const DeviceGrid& g, const float* p, long long* c) {
  unsigned long long id = 0;
  for (int j = 0; j < g.k; ++j) {
    c[j] = grid_cell_coord(p[g.dims[j]], g.origin[j], g.width, g.cells[j]);
    id += (unsigned long long)c[j] * g.strides[j];
  }
  return id;
}

__global__ void cell_ids_kernel(DeviceGrid g, const float* points, std::size_t n, unsigned long long* ids,
                                std::uint32_t* index) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long c[kMaxIndexedDims];
  ids[i] = cell_of(g, points + i * g.d, c);
  index[i] = std::uint32_t(i);
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
  const unsigned long long id = g.cell_ids[t];
  for (int j = 0; j < g.k; ++j) {
    if (!masks[j]) continue;
    const unsigned long long c = (id / g.strides[j]) % (unsigned long long)g.cells[j];
    atomicOr(masks[j] + c / 32, 1u << (c % 32));
  }
}

__device__ std::uint32_t lower_bound(const unsigned long long* ids, std::uint32_t n, unsigned long long key) {
  std::uint32_t low = 0, high = n;
  while (low < high) {
    const std::uint32_t mid = (low + high) / 2;
    if (ids[mid] < key) low = mid + 1; else high = mid;
  }
  return low;
}

// One thread per query (queries sorted by cell, so a warp mostly shares its cells). The neighbour
// cells are visited as rows of three cells along dims[0], whose ids are consecutive: one binary
// search per row, and the row's points are one contiguous range of the sorted order.
// unicomp (self-join): a row whose last non-zero offset is in dimension m is searched only when the
// query's own coordinate there is odd; the own row's side cells only when its coordinate in dims[0]
// is odd; inside the own cell only later sorted positions. Each pair is then tested exactly once.
template <bool kSelf, bool kUnicomp>
__global__ void join_kernel(DeviceGrid g, const float* query_points, const std::uint32_t* query_order,
                            std::size_t begin, std::size_t end, ExactPairTest test, BatchOutput out) {
  const std::size_t r = begin + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long tests = 0;
  if (r < end) {
    const float* p = query_points + r * g.d;
    const std::uint32_t qid = query_order[r];
    long long c[kMaxIndexedDims];
    const unsigned long long own_id = cell_of(g, p, c);
    std::uint32_t own_begin = 0;
    if (kSelf && kUnicomp) own_begin = g.cell_begin[lower_bound(g.cell_ids, g.cell_count, own_id)];
    int rows = 1;
    for (int j = 1; j < g.k; ++j) rows *= 3;
    for (int row = 0; row < rows; ++row) {
      int rest = row, last = -1;
      bool skip = false;
      unsigned long long base = 0;
      for (int j = 1; j < g.k; ++j) {
        const int offset = rest % 3 - 1;
        rest /= 3;
        const long long nc = c[j] + offset;
        if (nc < 0 || nc >= g.cells[j] ||
            (g.masks[j] && !(g.masks[j][nc / 32] & (1u << (nc % 32))))) {
          skip = true;
          break;
        }
        if (offset) last = j;
        base += (unsigned long long)nc * g.strides[j];
      }
      if (skip) continue;
      unsigned long long lo_id = base, hi_id = base;
      if (g.k > 0) {
        long long lo = c[0] - 1, hi = c[0] + 1;
        if (kSelf && kUnicomp) {
          if (last >= 0 && !(c[last] & 1)) continue;
          if (last < 0 && !(c[0] & 1)) lo = hi = c[0];
        }
        lo_id += (unsigned long long)max(lo, 0ll);
        hi_id += (unsigned long long)min(hi, g.cells[0] - 1);
      }
      const std::uint32_t t0 = lower_bound(g.cell_ids, g.cell_count, lo_id);
      std::uint32_t t1 = t0;
      while (t1 < g.cell_count && g.cell_ids[t1] <= hi_id) ++t1;
      if (t0 == t1) continue;
      const std::uint32_t s_end = g.cell_begin[t1];
      for (std::uint32_t s = g.cell_begin[t0]; s < s_end; ++s) {
        if (kSelf) {
          if (kUnicomp ? (last < 0 && s >= own_begin && s <= r) : s == r) continue;
        }
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
    }
  }
  add_compared(out, tests);
}

DeviceBuffer<float> upload_points(const PointSet32& points) {
  DeviceBuffer<float> raw(points.size() * points.dims(), "points");
  raw.upload(points.data(), raw.size());
  return raw;
}

// Computes the cell ids of the uploaded points (consumed) and sorts the points by them.
SortedPoints sort_by_cell(DeviceBuffer<float> raw, std::size_t n, std::size_t d, const DeviceGrid& grid,
                          int id_bits) {
  DeviceBuffer<unsigned long long> ids(n, "cell ids");
  DeviceBuffer<std::uint32_t> index(n, "point index");
  cell_ids_kernel<<<blocks_for(n, kThreads), kThreads>>>(grid, raw.data(), n, ids.data(), index.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  SortedPoints sorted{DeviceBuffer<float>(n * d, "sorted points"), DeviceBuffer<std::uint32_t>(n, "point order"),
                      DeviceBuffer<unsigned long long>(n, "sorted cell ids")};
  std::size_t temp_bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, ids.data(), sorted.ids.data(),
                                                     index.data(), sorted.order.data(), n, 0, id_bits));
  DeviceBuffer<char> temp(temp_bytes, "sort scratch");
  SIMJOIN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, ids.data(), sorted.ids.data(),
                                                     index.data(), sorted.order.data(), n, 0, id_bits));
  gather_kernel<<<blocks_for(n * d, kThreads), kThreads>>>(raw.data(), sorted.order.data(), n, d, sorted.coords.data());
  SIMJOIN_CUDA_CHECK_LAUNCH();
  return sorted;
}

Bounds joint_bounds(const JoinInputs& inputs) {
  Bounds bounds = compute_bounds(*inputs.a);
  if (inputs.self_join() || inputs.b->empty()) return bounds;
  const Bounds other = compute_bounds(*inputs.b);
  for (std::size_t j = 0; j < bounds.low.size(); ++j) {
    bounds.low[j] = std::min(bounds.low[j], other.low[j]);
    bounds.high[j] = std::max(bounds.high[j], other.high[j]);
  }
  return bounds;
}

// The grid index of A on one GPU: the grid as the kernels see it, the buffers behind it, A sorted by
// cell and, for A-join-B, the queries sorted by cell; the file's values for the exact test.
struct GridIndex {
  DeviceGrid grid;
  SortedPoints index, query_set;
  DeviceBuffer<unsigned long long> cell_ids;
  DeviceBuffer<std::uint32_t> cell_begin;
  std::vector<DeviceBuffer<std::uint32_t>> masks;
  DeviceExact exact;
};

// Builds the index on the current GPU; adds the phases "upload" and "build" to stats.
GridIndex build_index(const JoinInputs& inputs, const GridLayout& layout, RunStats& stats) {
  const PointSet32& a = *inputs.a;
  const bool self = inputs.self_join();
  GridIndex out;
  DeviceGrid& grid = out.grid;
  grid.k = int(layout.dims.size());
  grid.d = int(a.dims());
  grid.width = layout.cell_width;
  for (int j = 0; j < grid.k; ++j) {
    grid.dims[j] = layout.dims[j];
    grid.origin[j] = layout.origin[j];
    grid.cells[j] = (long long)layout.cells[j];
    grid.strides[j] = layout.strides[j];
  }
  const int id_bits = std::max(1, int(std::bit_width(layout.id_count - 1)));

  EventTimer upload_timer;
  DeviceBuffer<float> raw_a = upload_points(a);
  DeviceBuffer<float> raw_queries;
  if (!self) raw_queries = upload_points(inputs.queries());
  out.exact = upload_exact(inputs);
  stats.add_phase("upload", upload_timer.seconds());

  EventTimer build_timer;
  out.index = sort_by_cell(std::move(raw_a), a.size(), a.dims(), grid, id_bits);
  if (!self) out.query_set = sort_by_cell(std::move(raw_queries), inputs.queries().size(), a.dims(), grid, id_bits);

  // Run-length encoding of the sorted ids: B (unique ids) and G (offsets, by an exclusive scan).
  const std::size_t n = a.size();
  out.cell_ids = DeviceBuffer<unsigned long long>(n, "cell ids (B)");
  DeviceBuffer<std::uint32_t> counts(n + 1, "cell sizes");
  out.cell_begin = DeviceBuffer<std::uint32_t>(n + 1, "cell offsets (G)");
  DeviceBuffer<std::uint32_t> run_count(1, "cell count");
  std::size_t temp_bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, temp_bytes, out.index.ids.data(),
                                                        out.cell_ids.data(), counts.data(), run_count.data(), n));
  DeviceBuffer<char> temp(temp_bytes, "encode scratch");
  SIMJOIN_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(temp.data(), temp_bytes, out.index.ids.data(),
                                                        out.cell_ids.data(), counts.data(), run_count.data(), n));
  std::uint32_t cells_found = 0;
  run_count.download(&cells_found, 1);
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
  SIMJOIN_CUDA_CHECK(cudaMemset(counts.data() + cells_found, 0, sizeof(std::uint32_t)));
  temp_bytes = 0;
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts.data(), out.cell_begin.data(),
                                                   cells_found + 1));
  DeviceBuffer<char> scan_temp(temp_bytes, "scan scratch");
  SIMJOIN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), temp_bytes, counts.data(),
                                                   out.cell_begin.data(), cells_found + 1));
  grid.cell_ids = out.cell_ids.data();
  grid.cell_begin = out.cell_begin.data();
  grid.cell_count = cells_found;
  grid.points = out.index.coords.data();
  grid.order = out.index.order.data();

  // M: which cell coordinates are occupied, per indexed dimension (dims[0] is searched as rows).
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
  stats.add_phase("build", build_timer.seconds());
  SIMJOIN_CUDA_CHECK(cudaDeviceSynchronize());  // the batches run on their own non-blocking streams
  // Sorted copy of the points, order, sorted ids, B, cell sizes and G.
  stats.extra_bytes = n * (sizeof(float) * a.dims() + 28);
  return out;
}

void fill_structure(GridStructure& out, const GridLayout& layout, const DeviceGrid& grid, std::size_t n,
                    bool unicomp) {
  out.cell_width = layout.cell_width;
  out.indexed_dims = layout.dims;
  out.origin = layout.origin;
  out.cells_per_dim = layout.cells;
  out.unicomp = unicomp;
  out.cell_ids.resize(grid.cell_count);
  std::vector<std::uint32_t> begin(grid.cell_count + 1);
  out.point_order.resize(n);
  SIMJOIN_CUDA_CHECK(cudaMemcpy(out.cell_ids.data(), grid.cell_ids, grid.cell_count * sizeof(std::uint64_t),
                                cudaMemcpyDeviceToHost));
  SIMJOIN_CUDA_CHECK(cudaMemcpy(begin.data(), grid.cell_begin, begin.size() * sizeof(std::uint32_t),
                                cudaMemcpyDeviceToHost));
  SIMJOIN_CUDA_CHECK(cudaMemcpy(out.point_order.data(), grid.order, n * sizeof(std::uint32_t),
                                cudaMemcpyDeviceToHost));
  out.cell_begin.assign(begin.begin(), begin.end() - 1);
  out.cell_end.assign(begin.begin() + 1, begin.end());
}
}  // namespace

std::string GpuGridEngine::description() const {
  return "GPU-SJ (Gowanlock & Karsin 2018): epsilon-grid of non-empty cells built on the GPU, "
         "adjacent-cell search with unicomp, batched overlapped result transfer";
}

RunResult GpuGridEngine::run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink,
                             RunControl& control) {
  RunResult result;
  RunStats& stats = result.stats;
  const std::vector<int> devices = run_devices(params);
  stats.device = device_label(devices);
  const PointSet32& a = *inputs.a;
  const PointSet32& queries = inputs.queries();
  const bool self = inputs.self_join();
  if (a.empty() || queries.empty()) return result;

  control.set_phase("build");
  const GridLayout layout = choose_grid_layout(joint_bounds(inputs), a.size(), params.eps);
  stats.notes.insert(stats.notes.end(), layout.notes.begin(), layout.notes.end());
  if (devices.size() > 1)
    stats.notes.push_back("queries split into " + std::to_string(devices.size()) +
                          " equal shares of the cell order, one per GPU; each GPU builds the whole index");

  // Every GPU builds the same index and joins its share of the queries in cell order.
  const std::size_t n = a.size();
  std::vector<RunStats> shares(devices.size());
  SharedProgress progress(control, double(queries.size()));
  on_each_device(devices, progress, [&](std::size_t s) {
    RunStats& share = shares[s];
    const GridIndex index = build_index(inputs, layout, share);
    const ExactPairTest test = index.exact.test;
    if (s == 0) stats.notes.push_back(std::to_string(index.grid.cell_count) + " non-empty cells");
    const DeviceGrid& grid = index.grid;
    const float* query_points = self ? index.index.coords.data() : index.query_set.coords.data();
    const std::uint32_t* query_order = self ? index.index.order.data() : index.query_set.order.data();
    // The grid for the views (cheap next to the join up to a few million points) is copied to the
    // host on a thread of its own while the join runs; the batches use non-blocking streams.
    std::future<double> structure;
    if (s == 0 && n <= 2'000'000)
      structure = std::async(std::launch::async, [&, device = devices[s]] {
        SIMJOIN_CUDA_CHECK(cudaSetDevice(device));
        const auto start = std::chrono::steady_clock::now();
        GridStructure out;
        fill_structure(out, layout, grid, n, params.unicomp);
        result.grid = std::move(out);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      });
    const auto [first, last] = share_range(queries.size(), s, devices.size());
    const LaunchBatch launch = [&, first = first](std::size_t begin, std::size_t end, const BatchOutput& out,
                                                  cudaStream_t stream) {
      const unsigned blocks = blocks_for(end - begin, kThreads);
      begin += first, end += first;
      if (!self)
        join_kernel<false, false><<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end,
                                                                   test, out);
      else if (params.unicomp)
        join_kernel<true, true><<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end,
                                                                 test, out);
      else
        join_kernel<true, false><<<blocks, kThreads, 0, stream>>>(grid, query_points, query_order, begin, end,
                                                                  test, out);
    };
    batchers_.on(devices[s]).run(last - first, self ? n - 1 : n, params.batch_bytes, sink, progress, launch, share);
    if (structure.valid()) {
      const double seconds = structure.get();  // not a phase: it overlaps the join
      share.notes.push_back("grid structure copied to the host beside the join in " +
                            std::to_string(int(seconds * 1e3 + 0.5)) + " ms");
    }
  });
  merge_share_stats(devices, shares, stats);
  return result;
}

}  // namespace simjoin::gpu
