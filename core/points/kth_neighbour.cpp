#include "core/points/kth_neighbour.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>

#include "core/base/parallel.hpp"

namespace simjoin {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kSampleTerms = 2e8;  // queries x sample points x dimensions for the radius bounds
constexpr double kPassTerms = 1e9;    // query tests x dimensions in the pass over all points
constexpr std::size_t kMinSample = 1000;
constexpr std::size_t kMinQueries = 100;
constexpr std::size_t kGridAxes = 3;
constexpr double kMaxCells = 1 << 18;
constexpr std::size_t kMaxSpan = 4096;   // cells a query's box may cover; beyond, it tests every point
constexpr std::size_t kBlock = 1 << 15;  // points per parallel work item (a cancel check each)

// The oracle's squared distance (same terms, same order), stopped early once it reaches `cutoff`.
double squared_distance_below(const double* p, const double* q, std::size_t d, double scale, double cutoff) {
  double sum = 0;
  for (std::size_t k = 0; k < d;) {
    for (const std::size_t end = std::min(d, k + 8); k < end; ++k) {
      const double diff = (p[k] - q[k]) * scale;
      sum += diff * diff;
    }
    if (sum >= cutoff) break;
  }
  return sum;
}

// The k smallest squared distances offered for each query, starting as k copies of its upper bound.
struct NearestSlots {
  std::size_t k = 0;
  std::vector<double> values;  // query q's slots at [q k, q k + k)
  std::vector<double> worst;   // the largest slot of each query: only smaller distances enter

  NearestSlots(const std::vector<double>& bounds, std::size_t k) : k(k), worst(bounds) {
    values.reserve(bounds.size() * k);
    for (const double bound : bounds) values.insert(values.end(), k, bound);
  }
  void offer(std::size_t q, double squared) {
    double* slots = values.data() + q * k;
    *std::max_element(slots, slots + k) = squared;
    worst[q] = *std::max_element(slots, slots + k);
  }
};

// A coarse grid over the widest axes that lists, for each cell, the queries whose radius box meets
// it; queries whose box covers too many cells are tested against every point.
class QueryGrid {
 public:
  // No grid: every query tests every point.
  explicit QueryGrid(std::size_t queries) : everywhere_(queries) {
    std::iota(everywhere_.begin(), everywhere_.end(), std::uint32_t(0));
    start_.assign(2, 0);
  }

  QueryGrid(const PointSet& points, const Bounds64& bounds, const std::vector<std::size_t>& rows,
            const std::vector<double>& radii) {
    choose_axes(bounds);
    choose_cells(bounds, radii);
    std::size_t cells = 1;
    for (const std::size_t count : per_axis_) cells *= count;
    std::vector<std::size_t> counts(cells + 1, 0);
    std::vector<std::vector<std::size_t>> boxes(rows.size());
    for (std::size_t q = 0; q < rows.size(); ++q) {
      boxes[q] = box_cells(points.point(rows[q]), radii[q]);
      if (boxes[q].size() > kMaxSpan) everywhere_.push_back(std::uint32_t(q)), boxes[q].clear();
      for (const std::size_t cell : boxes[q]) ++counts[cell + 1];
    }
    std::partial_sum(counts.begin(), counts.end(), counts.begin());
    start_.assign(counts.begin(), counts.end());
    ids_.resize(start_.back());
    for (std::size_t q = 0; q < rows.size(); ++q)
      for (const std::size_t cell : boxes[q]) ids_[counts[cell]++] = std::uint32_t(q);
  }

  std::size_t cells() const { return start_.size() - 1; }
  std::size_t cell_of(const double* p) const {
    std::size_t cell = 0;
    for (std::size_t a = 0; a < axes_.size(); ++a) cell = cell * per_axis_[a] + index(a, p[axes_[a]]);
    return cell;
  }
  // The queries to test against a point in `cell`: those of the cell, then those of everywhere.
  template <typename Fn>
  void for_each_query(std::size_t cell, Fn&& fn) const {
    for (std::size_t i = start_[cell]; i < start_[cell + 1]; ++i) fn(ids_[i]);
    for (const std::uint32_t q : everywhere_) fn(q);
  }
  std::size_t queries_in(std::size_t cell) const { return start_[cell + 1] - start_[cell] + everywhere_.size(); }

 private:
  void choose_axes(const Bounds64& bounds) {
    axes_.resize(bounds.low.size());
    std::iota(axes_.begin(), axes_.end(), std::size_t(0));
    const auto range = [&](std::size_t a) { return bounds.high[a] - bounds.low[a]; };
    std::sort(axes_.begin(), axes_.end(), [&](std::size_t a, std::size_t b) { return range(a) > range(b); });
    axes_.resize(std::min(axes_.size(), kGridAxes));
  }
  // Cells about as wide as a typical query's radius box, at most kMaxCells in all.
  void choose_cells(const Bounds64& bounds, std::vector<double> radii) {
    std::nth_element(radii.begin(), radii.begin() + std::ptrdiff_t(radii.size() / 2), radii.end());
    const double width = 2 * radii[radii.size() / 2];
    const double most = std::floor(std::pow(kMaxCells, 1.0 / double(axes_.size())));
    for (const std::size_t axis : axes_) {
      const double range = bounds.high[axis] - bounds.low[axis];
      const double count = range > 0 && width > 0 ? std::clamp(std::ceil(range / width), 1.0, most) : 1.0;
      per_axis_.push_back(std::size_t(count));
      low_.push_back(bounds.low[axis]);
      width_.push_back(range > 0 ? range / count : 1.0);
    }
  }
  std::size_t index(std::size_t a, double x) const {
    const double cell = std::floor((x - low_[a]) / width_[a]);
    return std::size_t(std::clamp(cell, 0.0, double(per_axis_[a] - 1)));
  }
  // The cells met by the box of half-width `radius` around p (more than kMaxSpan: kMaxSpan + 1 of them).
  std::vector<std::size_t> box_cells(const double* p, double radius) const {
    std::vector<std::size_t> low(axes_.size()), high(axes_.size());
    double span = 1;
    for (std::size_t a = 0; a < axes_.size(); ++a) {
      low[a] = index(a, p[axes_[a]] - radius);
      high[a] = index(a, p[axes_[a]] + radius);
      span *= double(high[a] - low[a] + 1);
    }
    if (span > double(kMaxSpan)) return std::vector<std::size_t>(kMaxSpan + 1);
    std::vector<std::size_t> cells{0};
    for (std::size_t a = 0; a < axes_.size(); ++a) {
      std::vector<std::size_t> next;
      for (const std::size_t cell : cells)
        for (std::size_t i = low[a]; i <= high[a]; ++i) next.push_back(cell * per_axis_[a] + i);
      cells = std::move(next);
    }
    return cells;
  }

  std::vector<std::size_t> axes_, per_axis_;
  std::vector<double> low_, width_;
  std::vector<std::size_t> start_;
  std::vector<std::uint32_t> ids_, everywhere_;
};

struct Queries {
  const PointSet& points;
  std::vector<std::size_t> rows;
  std::size_t k;
  double scale;
};

// Offers every point of `candidates` (all points when null) to the queries the grid names, on all
// threads, and merges the threads' slots.
NearestSlots measure(const Queries& queries, const std::vector<std::size_t>* candidates, const QueryGrid& grid,
                     const std::vector<double>& bounds, RunControl& control) {
  const PointSet& points = queries.points;
  const std::size_t count = candidates ? candidates->size() : points.size();
  std::vector<NearestSlots> slots(std::size_t(thread_count(0)), NearestSlots(bounds, queries.k));
  parallel_for_each((count + kBlock - 1) / kBlock, 0, control, [&](std::size_t block) {
    NearestSlots& mine = slots[std::size_t(omp_get_thread_num())];
    for (std::size_t i = block * kBlock; i < std::min(count, (block + 1) * kBlock); ++i) {
      const std::size_t row = candidates ? (*candidates)[i] : i;
      const double* p = points.point(row);
      grid.for_each_query(grid.cell_of(p), [&](std::uint32_t q) {
        if (queries.rows[q] == row) return;
        const double squared =
            squared_distance_below(points.point(queries.rows[q]), p, points.dims(), queries.scale, mine.worst[q]);
        if (squared < mine.worst[q]) mine.offer(q, squared);
      });
    }
  });
  for (std::size_t t = 1; t < slots.size(); ++t)
    for (std::size_t q = 0; q < bounds.size(); ++q)
      for (std::size_t j = 0; j < queries.k; ++j) {
        const double squared = slots[t].values[q * queries.k + j];
        if (squared < slots[0].worst[q]) slots[0].offer(q, squared);
      }
  return std::move(slots[0]);
}

// The tests and terms the pass over all points would do; where too many, keeps an evenly spaced
// subset of the queries (with their radii) that stays within kPassTerms.
bool thin_queries(Queries& queries, std::vector<double>& radii, const QueryGrid& grid, RunControl& control) {
  const PointSet& points = queries.points;
  std::vector<std::uint64_t> per_cell(grid.cells(), 0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i % (kBlock * 16) == 0) control.throw_if_cancelled();
    ++per_cell[grid.cell_of(points.point(i))];
  }
  double tests = 0;
  for (std::size_t cell = 0; cell < grid.cells(); ++cell)
    tests += double(per_cell[cell]) * double(grid.queries_in(cell));
  const double terms = tests * double(points.dims());
  const std::size_t m = queries.rows.size();
  if (terms <= kPassTerms || m <= kMinQueries) return false;
  const std::size_t keep = std::max(kMinQueries, std::size_t(double(m) * kPassTerms / terms));
  std::vector<std::size_t> rows(keep);
  std::vector<double> kept(keep);
  for (std::size_t q = 0; q < keep; ++q) rows[q] = queries.rows[q * m / keep], kept[q] = radii[q * m / keep];
  queries.rows = std::move(rows);
  radii = std::move(kept);
  return true;
}

NeighbourDistances distances_of(const Queries& queries, const NearestSlots& slots) {
  NeighbourDistances result;
  result.rows = queries.rows;
  for (std::size_t q = 0; q < queries.rows.size(); ++q) {
    const double* begin = slots.values.data() + q * queries.k;
    result.kth.push_back(std::sqrt(*std::max_element(begin, begin + queries.k)) / queries.scale);
    result.nearest.push_back(std::sqrt(*std::min_element(begin, begin + queries.k)) / queries.scale);
  }
  return result;
}
}  // namespace

NeighbourDistances kth_neighbour_distances(const PointSet& points, const std::vector<std::size_t>& query_rows,
                                           std::size_t k, RunControl& control) {
  const std::size_t n = points.size(), d = points.dims();
  k = std::min(k, n - 1);
  if (query_rows.empty() || k == 0) return {};
  const Bounds64 bounds = compute_bounds(points);
  double widest = 0;
  for (std::size_t a = 0; a < d; ++a) widest = std::max(widest, bounds.high[a] - bounds.low[a]);
  // The oracle's scaling by a power of two keeps squared distances of any magnitude finite.
  Queries queries{points, query_rows, k, widest > 0 ? std::ldexp(1.0, -std::ilogb(widest)) : 1.0};

  // The k-th neighbour within any subset (here evenly spaced rows) is at least as far as the k-th among
  // all points.
  const std::size_t m = query_rows.size();
  const std::size_t sample_size = std::max({kMinSample, k + 1, std::size_t(kSampleTerms / double(m * d))});
  const bool whole = sample_size >= n;
  std::vector<std::size_t> sample(whole ? 0 : sample_size);
  for (std::size_t i = 0; i < sample.size(); ++i) sample[i] = i * n / sample_size + (n / sample_size) / 2;
  const NearestSlots bounded =
      measure(queries, whole ? nullptr : &sample, QueryGrid(m), std::vector<double>(m, kInfinity), control);
  if (whole) return distances_of(queries, bounded);

  std::vector<double> radii = bounded.worst, squared;
  for (double& radius : radii) radius = std::sqrt(radius) / queries.scale * (1 + 1e-9);
  std::optional<QueryGrid> grid(std::in_place, points, bounds, queries.rows, radii);
  if (thin_queries(queries, radii, *grid, control)) grid.emplace(points, bounds, queries.rows, radii);
  for (const double radius : radii) squared.push_back(std::pow(radius * queries.scale, 2));
  return distances_of(queries, measure(queries, nullptr, *grid, squared, control));
}

}  // namespace simjoin
