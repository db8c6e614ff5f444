#include "core/engines/detail/grid_cell_sort.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/base/parallel.hpp"
#include "core/engines/detail/epsilon_grid.hpp"
#include "core/numeric/grid_cell_order.hpp"

namespace simjoin {

namespace {
void check(const RunControl* control) {
  if (control) control->throw_if_cancelled();
}

// Sorts `keys` stably by their bits [low, high): an LSD radix sort in passes of at most 11 bits,
// whose 2048 counters stay in the first-level cache.
void radix_sort(std::vector<std::uint64_t>& keys, int low, int high) {
  if (high <= low || keys.size() < 2) return;
  const int passes = (high - low + 10) / 11, digit = (high - low + passes - 1) / passes;
  const std::uint64_t mask = (std::uint64_t(1) << digit) - 1;
  std::vector<std::uint64_t> sorted(keys.size());
  std::vector<std::size_t> start(std::size_t(mask) + 2);
  for (int shift = low; shift < high; shift += digit) {
    std::fill(start.begin(), start.end(), 0);
    for (const std::uint64_t key : keys) ++start[((key >> shift) & mask) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const std::uint64_t key : keys) sorted[start[(key >> shift) & mask]++] = key;
    keys.swap(sorted);
  }
}

// The common case: each row's cell key (slot 0 least significant, as grid_cell_order.hpp orders
// cells) above its row number in one word, one radix sort, and the cells read off the sorted words.
// Returns false, leaving `out` as it was, when some coordinate needs more than its `bits`.
bool sort_packed(const PointRows& rows, const GridStructure& g, const std::vector<int>& bits, int row_bits, int threads,
                 GridStructure& out, const RunControl* control) {
  const std::size_t n = rows.size(), m = g.indexed_dims.size();
  const int cell_bits = std::accumulate(bits.begin(), bits.end(), 0);
  std::vector<std::uint64_t> keys(n);
  std::vector<EpsilonGrid::SlotCells> slot_cells;
  for (std::size_t s = 0; s < m; ++s) slot_cells.emplace_back(g, s);
  bool overflow = false;
#pragma omp parallel for schedule(static) num_threads(thread_count(threads)) reduction(|| : overflow)
  for (std::size_t r = 0; r < n; ++r) {
    std::uint64_t key = 0;
    for (std::size_t s = m; s-- > 0;) {
      const auto c = std::uint64_t(slot_cells[s](rows.point(r)));
      overflow = overflow || (c >> bits[s]) != 0;
      key = (key << bits[s]) | c;
    }
    keys[r] = (key << row_bits) | r;
  }
  if (overflow) return false;
  check(control);
  radix_sort(keys, row_bits, row_bits + cell_bits);
  check(control);
  const std::uint64_t row_mask = (std::uint64_t(1) << row_bits) - 1;
  out.point_order.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    out.point_order[t] = std::uint32_t(keys[t] & row_mask);
    std::uint64_t cell = keys[t] >> row_bits;
    if (t != 0 && cell == keys[t - 1] >> row_bits) continue;
    if (t != 0) out.cell_end.push_back(std::uint32_t(t));
    out.cell_begin.push_back(std::uint32_t(t));
    for (std::size_t s = 0; s < m; ++s) {
      out.cell_coords.push_back(std::int64_t(cell & ((std::uint64_t(1) << bits[s]) - 1)));
      cell >>= bits[s];
    }
  }
  out.cell_end.push_back(std::uint32_t(n));
  return true;
}

using Keyed = std::pair<std::uint64_t, std::uint32_t>;  // cell key, row

// Sorts by key, stably: an LSD radix sort, 8 bits a pass, as many passes as the largest key needs.
void sort_by_key(std::vector<Keyed>& keyed) {
  std::uint64_t largest = 0;
  for (const Keyed& e : keyed) largest = std::max(largest, e.first);
  std::vector<Keyed> sorted(keyed.size());
  for (unsigned shift = 0; shift < 64 && (largest >> shift) != 0; shift += 8) {
    std::size_t start[257] = {};
    for (const Keyed& e : keyed) ++start[((e.first >> shift) & 255) + 1];
    for (std::size_t b = 0; b < 256; ++b) start[b + 1] += start[b];
    for (const Keyed& e : keyed) sorted[start[(e.first >> shift) & 255]++] = e;
    keyed.swap(sorted);
  }
}

// Any grid: the rows' cell coordinates, sorted as tuples by one key per range of slots that fits a
// word (cell_key_ranges), least significant range first.
void sort_by_tuples(const PointRows& rows, const GridStructure& g, int threads, GridStructure& out,
                    const RunControl* control) {
  const std::size_t n = rows.size(), m = g.indexed_dims.size();
  std::vector<std::int64_t> coords(n * m);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t s = 0; s < m; ++s) coords[r * m + s] = EpsilonGrid::cell_coordinate(g, rows.point(r), s);
  check(control);
  std::vector<int> bits(m, 0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t s = 0; s < m; ++s)
      bits[s] = std::max(bits[s], int(std::bit_width(std::uint64_t(coords[r * m + s]))));
  std::vector<Keyed> keyed(n);
  for (std::size_t r = 0; r < n; ++r) keyed[r].second = std::uint32_t(r);
  for (const auto& [first, last] : cell_key_ranges(bits)) {
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
    for (std::size_t t = 0; t < n; ++t)
      keyed[t].first = cell_key(coords.data() + keyed[t].second * m, first, last, bits.data());
    check(control);
    sort_by_key(keyed);
    check(control);
  }
  out.point_order.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    out.point_order[t] = keyed[t].second;
    // data() + offset, not &coords[...]: with no indexed dimension the vector is empty.
    const std::int64_t* c = coords.data() + keyed[t].second * m;
    if (t == 0 || !std::equal(c, c + m, coords.data() + keyed[t - 1].second * m)) {
      if (t != 0) out.cell_end.push_back(std::uint32_t(t));
      out.cell_coords.insert(out.cell_coords.end(), c, c + m);
      out.cell_begin.push_back(std::uint32_t(t));
    }
  }
  out.cell_end.push_back(std::uint32_t(n));
}
}  // namespace

std::vector<int> cell_coordinate_bits(const GridStructure& g, const std::vector<double>& high) {
  std::vector<int> bits;
  for (std::size_t s = 0; s < g.indexed_dims.size(); ++s) {
    const std::int64_t c = cell_floor(high[std::size_t(g.indexed_dims[s])], g.origin[s], g.cell_width);
    bits.push_back(int(std::bit_width(std::uint64_t(std::max(c, std::int64_t(0))))));
  }
  return bits;
}

void sort_into_cells(const PointRows& rows, const GridStructure& g, const std::vector<int>& bits, int threads,
                     GridStructure& out, const RunControl* control) {
  const std::size_t n = rows.size();
  if (n == 0) return;
  const int row_bits = int(std::bit_width(n - 1));
  if (std::accumulate(bits.begin(), bits.end(), row_bits) <= 64 &&
      sort_packed(rows, g, bits, row_bits, threads, out, control))
    return;
  sort_by_tuples(rows, g, threads, out, control);
}

}  // namespace simjoin
