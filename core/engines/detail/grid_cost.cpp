#include "core/engines/detail/grid_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/base/parallel.hpp"
#include "core/engines/detail/epsilon_grid.hpp"

namespace simjoin {

namespace {
// Estimated costs in nanoseconds on one core, fitted to the grid join's own loops (grid_join.hpp)
// on 6- and 8-dimensional data with 3 to 6 indexed dimensions.
constexpr double kLookupNs = 40;  // one neighbour row of one query cell: M filter, binary search
constexpr double kRowNs = 15;     // one query scanning one non-empty row: the scan's set-up
// One distance test: whole distances in registers up to 8 dimensions, a pass per dimension above.
double test_ns(std::size_t d) { return d <= 8 ? 0.45 + 0.075 * double(d) : 0.2 * double(d); }

// Sampled queries: enough for a stable estimate; counting each against every point costs about one
// cell coordinate and a search of the samples per point.
constexpr std::size_t kSamples = 64;

// A sampled query's own cell and the three cells around it in one candidate dimension, as ranges of
// coordinate values (approximate at the cell borders, which is all an estimate needs).
struct Window {
  double own_low, own_high, near_low, near_high;
};

// The sample, ordered by cell coordinate in the first candidate dimension: a point can only be near
// the samples within one cell of its own there.
struct Samples {
  std::size_t dims = 0;
  std::vector<std::int64_t> first_cell;
  std::vector<Window> windows;  // sample * dims + slot
  std::size_t size() const { return first_cell.size(); }
  const Window* window(std::size_t i) const { return windows.data() + i * dims; }
};

Samples take_samples(const PointRows& queries, const GridStructure& g) {
  const std::size_t count = std::min(kSamples, queries.size());
  std::vector<std::pair<std::int64_t, std::size_t>> order;
  for (std::size_t i = 0; i < count; ++i) {
    // Evenly spread over the queries' order, which samples sorted inputs fairly too.
    const std::size_t r = (2 * i + 1) * queries.size() / (2 * count);
    order.push_back({EpsilonGrid::cell_coordinate(g, queries.point(r), 0), r});
  }
  std::sort(order.begin(), order.end());
  Samples samples;
  samples.dims = g.indexed_dims.size();
  for (const auto& [cell, r] : order) {
    samples.first_cell.push_back(cell);
    for (std::size_t s = 0; s < samples.dims; ++s) {
      const double low = g.origin[s] + double(EpsilonGrid::cell_coordinate(g, queries.point(r), s)) * g.cell_width;
      samples.windows.push_back({low, low + g.cell_width, low - g.cell_width, low + 2 * g.cell_width});
    }
  }
  return samples;
}

// Per sample and depth >= 1: how many rows have their first `depth` candidate coordinates among the
// sample's neighbour cells (near) and in its own cell (own); either histogram may be skipped.
// Histograms are indexed sample * (dims + 1) + depth.
// Rows are skipped once `control` is cancelled; the caller then throws.
void count_depths(const PointRows& rows, const GridStructure& g, const Samples& samples, int threads,
                  const RunControl* control, std::vector<std::uint64_t>* near, std::vector<std::uint64_t>* own) {
  const std::size_t dims = samples.dims;
  const int* slot_dim = g.indexed_dims.data();
  const EpsilonGrid::SlotCells first_cell(g, 0);
  // Most rows are more than a cell from every sample in the first dimension: a bit per first
  // coordinate modulo kNearBits, set around the samples', lets them skip the search.
  constexpr std::size_t kNearBits = 1 << 16;
  std::vector<std::uint64_t> near_bits(kNearBits / 64);
  for (const std::int64_t cell : samples.first_cell)
    for (std::int64_t c = cell - 1; c <= cell + 1; ++c) {
      const std::size_t bit = std::size_t(c) % kNearBits;
      near_bits[bit / 64] |= std::uint64_t(1) << (bit % 64);
    }
#pragma omp parallel num_threads(thread_count(threads))
  {
    std::vector<std::uint64_t> local_near(samples.size() * (dims + 1)), local_own(local_near.size());
    double x[EpsilonGrid::kMaxIndexed];
#pragma omp for schedule(static)
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (control && control->cancelled()) continue;
      const std::int64_t cell = first_cell(rows.point(r));
      const std::size_t bit = std::size_t(cell) % kNearBits;
      if ((near_bits[bit / 64] >> (bit % 64) & 1) == 0) continue;
      for (std::size_t s = 0; s < dims; ++s) x[s] = rows.point(r)[slot_dim[s]];
      auto i = std::size_t(std::lower_bound(samples.first_cell.begin(), samples.first_cell.end(), cell - 1) -
                           samples.first_cell.begin());
      for (; i < samples.size() && samples.first_cell[i] <= cell + 1; ++i) {
        const Window* w = samples.window(i);
        std::size_t depth = dims;
        if (near) {
          depth = 1;
          while (depth < dims && x[depth] >= w[depth].near_low && x[depth] < w[depth].near_high) ++depth;
          ++local_near[i * (dims + 1) + depth];
        }
        if (own && samples.first_cell[i] == cell) {
          std::size_t inside = 1;
          while (inside < depth && x[inside] >= w[inside].own_low && x[inside] < w[inside].own_high) ++inside;
          ++local_own[i * (dims + 1) + inside];
        }
      }
    }
#pragma omp critical(simjoin_grid_cost)
    for (std::size_t t = 0; t < local_near.size(); ++t) {
      if (near) (*near)[t] += local_near[t];
      if (own) (*own)[t] += local_own[t];
    }
  }
}

double rows_per_cell(std::size_t m) { return m == 0 ? 1 : std::pow(3.0, double(m - 1)); }

std::string estimate_text(std::size_t m, double tests, double lookups) {
  char text[96];
  std::snprintf(text, sizeof text, "%zu: %.2g tests, %.2g lookups", m, tests, lookups);
  return text;
}
}  // namespace

IndexChoice choose_indexed_dims(const PointRows& points, const PointRows& queries, bool self_join,
                                const GridStructure& candidates, int threads, const RunControl* control) {
  const std::size_t dims = candidates.indexed_dims.size();
  if (dims == 0 || queries.size() == 0) return {0, "no dimension spans a cell"};
  const Samples samples = take_samples(queries, candidates);
  const std::size_t width = dims + 1;
  std::vector<std::uint64_t> near(samples.size() * width), own(near.size());
  count_depths(points, candidates, samples, threads, control, &near, self_join ? &own : nullptr);
  if (!self_join) count_depths(queries, candidates, samples, threads, control, nullptr, &own);
  if (control) control->throw_if_cancelled();

  // Summed over the samples, per m: candidates (neighbours found, not counting itself), 1 / (queries
  // in its cell), which estimates the cells, and the non-empty rows it scans (at most one per
  // candidate).
  std::vector<double> tests(width), cell_share(width), scanned_rows(width);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::uint64_t found = 0, in_cell = 0;
    for (std::size_t m = dims; m >= 1; --m) {
      found += near[i * width + m];
      in_cell += own[i * width + m];
      const double neighbours = double(found) - (self_join ? 1 : 0);
      tests[m] += neighbours;
      cell_share[m] += 1 / std::max(double(in_cell), 1.0);
      scanned_rows[m] += std::min(rows_per_cell(m), neighbours);
    }
    // Nothing indexed: one cell holding everything.
    tests[0] += double(points.size()) - (self_join ? 1 : 0);
    cell_share[0] += 1 / double(queries.size());
    scanned_rows[0] += 1;
  }

  const double scale = double(queries.size()) / double(samples.size());
  std::vector<double> est_tests(width), est_lookups(width);
  std::size_t best = 0;
  double best_cost = 0;
  for (std::size_t m = 0; m <= dims; ++m) {
    est_tests[m] = tests[m] * scale;
    est_lookups[m] = cell_share[m] * scale * rows_per_cell(m);
    const double cost =
        est_lookups[m] * kLookupNs + scanned_rows[m] * scale * kRowNs + est_tests[m] * test_ns(points.dims());
    if (m == 0 || cost < best_cost) {
      best = m;
      best_cost = cost;
    }
  }

  std::string reason = "cost model over " + std::to_string(samples.size()) + " sampled queries, estimated " +
                       estimate_text(best, est_tests[best], est_lookups[best]);
  if (best > 0) reason += "; " + estimate_text(best - 1, est_tests[best - 1], est_lookups[best - 1]);
  if (best < dims) reason += "; " + estimate_text(best + 1, est_tests[best + 1], est_lookups[best + 1]);
  // Every query against every point but itself: what the unindexed estimate (m = 0) counts.
  const double all_pairs = double(queries.size()) * (double(points.size()) - (self_join ? 1 : 0));
  return {best, reason, all_pairs > 0 ? std::min(1.0, est_tests[best] / all_pairs) : 1.0};
}

}  // namespace simjoin
