#include "core/frame/far_points.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/parallel.hpp"
#include "core/frame/join_frame.hpp"

namespace simjoin {

namespace {
constexpr std::size_t kSampleRows = 16384;
constexpr double kWorkLimit = 0x1p30;          // float64 operations the far points' join may cost
constexpr std::size_t kMaxFarRows = 1024;      // far points at most (those of A and B together)
constexpr std::size_t kRowsPerItem = 1 << 16;  // rows of the other side one far-join item covers
// Where the engine's speed depends on the points' spread, far points are looked for once the data's
// half-diagonal exceeds this many eps (the tensor-core form's band grows as its square: at 960
// dimensions it passes eps^2 / 8 at about 6 eps from the middle).
constexpr double kSpreadToEps = 4;

// The 1st and 99th percentiles of `column` (reordered), widened by their distance on either side.
std::pair<double, double> widened_middle(std::vector<double>& column) {
  const auto at = [&](double fraction) {
    const auto nth = column.begin() + std::ptrdiff_t(fraction * double(column.size() - 1));
    std::nth_element(column.begin(), nth, column.end());
    return *nth;
  };
  const double low = at(0.01), high = at(0.99), width = high - low;
  return {low - width, high + width};
}

// Per dimension, the 1st and 99th percentiles of a sample of A and B together, widened by their
// distance on either side and clipped to the data's bounds. Dimensions are gathered kColumnsAtOnce at a
// time, so that each sampled row's cache line is read once for all of them.
Bounds64 middle_box(const JoinSources& sources, const Bounds64& bounds, std::size_t rows, int threads) {
  constexpr std::size_t kColumnsAtOnce = 8;
  const std::size_t d = sources.a->dims();
  const std::size_t total = sources.a->size() + (sources.b ? sources.b->size() : 0);
  std::vector<PointSet> samples;
  for (const PointSet* points : {sources.a, sources.b})
    if (points && !points->empty())
      samples.push_back(
          sample_points(*points, std::min(points->size(), std::max<std::size_t>(1, rows * points->size() / total)), 1));
  Bounds64 box = bounds;
#pragma omp parallel num_threads(thread_count(threads))
  {
    std::vector<double> columns[kColumnsAtOnce];
#pragma omp for schedule(static)
    for (std::size_t first = 0; first < d; first += kColumnsAtOnce) {
      const std::size_t count = std::min(kColumnsAtOnce, d - first);
      for (std::size_t c = 0; c < count; ++c) columns[c].clear();
      for (const PointSet& sample : samples)
        for (std::size_t i = 0; i < sample.size(); ++i)
          for (std::size_t c = 0; c < count; ++c) columns[c].push_back(sample.point(i)[first + c]);
      for (std::size_t c = 0; c < count; ++c) {
        const auto [low, high] = widened_middle(columns[c]);
        box.low[first + c] = std::max(bounds.low[first + c], low);
        box.high[first + c] = std::min(bounds.high[first + c], high);
      }
    }
  }
  return box;
}

double half_diagonal(const JoinFrame& frame) {
  double sum = 0;
  for (const double half : frame.half_extent()) sum += half * half;
  return std::sqrt(sum);
}

bool outside(const double* point, const Bounds64& box) {
  for (std::size_t k = 0; k < box.low.size(); ++k)
    if (!(point[k] >= box.low[k] && point[k] <= box.high[k])) return true;
  return false;
}

// The rows of `points` outside `box`, ascending; stops early (returning false) past `limit` rows.
bool rows_outside(const PointSet& points, const Bounds64& box, std::size_t limit, int threads,
                  std::vector<std::uint32_t>& rows) {
  const std::size_t n = points.size(), chunks = (n + kRowsPerItem - 1) / kRowsPerItem;
  std::vector<std::vector<std::uint32_t>> found(chunks);
  std::atomic<std::size_t> total{0};
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(threads))
  for (std::size_t c = 0; c < chunks; ++c) {
    if (total.load(std::memory_order_relaxed) > limit) continue;
    const std::size_t end = std::min(n, (c + 1) * kRowsPerItem);
    std::size_t here = 0;
    for (std::size_t i = c * kRowsPerItem; i < end; ++i)
      if (outside(points.point(i), box) && ++here <= limit + 1) found[c].push_back(std::uint32_t(i));
    total.fetch_add(here, std::memory_order_relaxed);
  }
  if (total.load() > limit) return false;
  for (const auto& part : found) rows.insert(rows.end(), part.begin(), part.end());
  return true;
}

// True when `point` lies farther than eps from the box in some dimension: then every point inside
// the box is farther than eps from it, also for the oracle's rounded sum (the margin covers the
// rounding of the difference, and the sum of squares can only grow; for eps = 0 it keeps a
// difference's square from underflowing to 0).
bool separated(const double* point, const Bounds64& box, double eps) {
  const double margin = eps > 0 ? eps * (1 + 0x1p-30) : 0x1p-500;
  for (std::size_t k = 0; k < box.low.size(); ++k)
    if (box.low[k] - point[k] > margin || point[k] - box.high[k] > margin) return true;
  return false;
}

std::vector<bool> row_mask(std::size_t n, const std::vector<std::uint32_t>& rows) {
  std::vector<bool> mask(n, false);
  for (const std::uint32_t row : rows) mask[row] = true;
  return mask;
}

// Whether far points are worth looking for: where the frame's rounding matters; or, for an engine whose
// speed falls with the spread, where the data reaches farther than a few eps from its middle, and a
// small sample's middle box already shrinks the spread fourfold (without far points it holds them all).
bool worth_looking(const JoinSources& sources, const JoinFrame& whole, bool spread_matters, int threads) {
  constexpr std::size_t kQuickSampleRows = 256;
  if (whole.distance_error() > whole.eps() / 64) return true;
  return spread_matters && half_diagonal(whole) > kSpreadToEps * whole.eps() &&
         whole.over(middle_box(sources, whole.bounds(), kQuickSampleRows, threads)).distance_error() <=
             whole.distance_error() / 4;
}

// The float64 operations of join_far_points: a far point tests every point of the other side, or, where
// separated from the bulk's box, only the other far points.
double far_join_work(const JoinSources& sources, const FarPoints& far, double eps) {
  const double d = double(sources.a->dims());
  const auto side = [&](const PointSet& points, const std::vector<std::uint32_t>& rows, const PointSet& other) {
    double work = 0;
    for (const std::uint32_t row : rows)
      work += separated(points.point(row), far.bulk, eps) ? double(far.size()) : double(other.size());
    return work * d;
  };
  const PointSet& b = sources.b ? *sources.b : *sources.a;
  return side(*sources.a, far.a, b) + (sources.b ? side(b, far.b, *sources.a) : 0);
}
}  // namespace

FarPoints find_far_points(const JoinSources& sources, const JoinFrame& whole, int threads, bool spread_matters) {
  FarPoints far;
  const std::size_t total = sources.a->size() + (sources.b ? sources.b->size() : 0);
  if (total < 2) return far;
  if (!worth_looking(sources, whole, spread_matters, threads)) return far;
  const double bound_all = whole.distance_error();
  far.bulk = middle_box(sources, whole.bounds(), kSampleRows, threads);
  // The rounding bound is proportional to the extent: a fourth of it is a fourth of the spread too.
  if (whole.over(far.bulk).distance_error() > bound_all / 4) return far;
  // As many as 2^30 operations allow even where each tests every point (the rule for the frame's rounding
  // alone), or kMaxFarRows where most are separated from the bulk.
  const std::size_t d = sources.a->dims();
  const std::size_t limit = std::max(kMaxFarRows, std::size_t(kWorkLimit / (double(d) * double(total))));
  if (!rows_outside(*sources.a, far.bulk, limit, threads, far.a) ||
      (sources.b && !rows_outside(*sources.b, far.bulk, limit - far.a.size(), threads, far.b)) ||
      far_join_work(sources, far, whole.eps()) > kWorkLimit) {
    far.a.clear();
    far.b.clear();
  }
  return far;
}

FarPoints find_far_points(const JoinSources& sources, double eps, int threads, bool spread_matters) {
  return find_far_points(sources, JoinFrame(*sources.a, sources.b, eps), threads, spread_matters);
}

PointSet without_rows(const PointSet& points, std::span<const std::uint32_t> far, std::vector<std::uint32_t>& kept,
                      int threads, const RunControl* control) {
  const std::size_t n = points.size(), d = points.dims();
  PointSet rest = PointSet::uninitialized(n - far.size(), d);
  kept.clear();
  kept.reserve(n - far.size());
  std::size_t next_far = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (next_far < far.size() && far[next_far] == i)
      ++next_far;
    else
      kept.push_back(std::uint32_t(i));
  }
  // Rows of long sets are gigabytes (1 M x 960): copied by every thread, 128 MB between cancel checks.
  const std::size_t chunk = std::max<std::size_t>(1, (std::size_t(1) << 27) / (std::max<std::size_t>(d, 1) * 8));
  for (std::size_t first = 0; first < kept.size(); first += chunk) {
    if (control) control->throw_if_cancelled();
    const std::size_t last = std::min(kept.size(), first + chunk);
#pragma omp parallel for schedule(static) num_threads(thread_count(threads))
    for (std::size_t r = first; r < last; ++r) std::copy_n(points.point(kept[r]), d, rest.point(r));
  }
  rest.column_names = points.column_names;
  rest.source = points.source;
  rest.source_type = points.source_type;
  return rest;
}

std::uint64_t join_far_points(const JoinSources& sources, const FarPoints& far, double eps, int threads, PairSink& sink,
                              RunControl& control) {
  const PointSet& a = *sources.a;
  const bool self = sources.self_join();
  const PointSet& b = self ? a : *sources.b;
  const std::size_t d = a.dims();
  const ExactBand oracle = oracle_band(eps);
  const std::vector<bool> far_in_a = row_mask(a.size(), far.a);
  // Items: each far point of A against a range of B's rows, then (A join B) each far point of B
  // against a range of A's rows that are not far themselves (those pairs were the first kind). A far
  // point separated from the bulk's box by more than eps can only pair with far points: its first
  // item tests those and its other items nothing.
  const std::size_t b_ranges = (b.size() + kRowsPerItem - 1) / kRowsPerItem;
  const std::size_t a_ranges = (a.size() + kRowsPerItem - 1) / kRowsPerItem;
  const std::size_t first_kind = far.a.size() * b_ranges;
  const std::size_t items = first_kind + (self ? 0 : far.b.size() * a_ranges);
  const std::vector<std::uint32_t>& far_of_b = self ? far.a : far.b;
  std::uint64_t compared = 0;
  parallel_rows(
      items, threads, control,
      [&](std::size_t item, PairBuffer& out) {
        std::uint64_t tests = 0;
        const auto test = [&](std::uint32_t i, std::uint32_t j) {
          ++tests;
          if (!oracle.oracle_within(a.point(i), b.point(j), d)) return;
          if (self)
            out.push(std::min(i, j), std::max(i, j));
          else
            out.push(i, j);
        };
        if (item < first_kind) {
          const std::uint32_t i = far.a[item / b_ranges];
          const std::size_t range = item % b_ranges;
          // In a self-join a pair of two far points is tested from its first point only.
          const auto skip = [&](std::size_t j) { return self && (j == i || (far_in_a[j] && j < i)); };
          if (separated(a.point(i), far.bulk, eps)) {
            if (range == 0)
              for (const std::uint32_t j : far_of_b)
                if (!skip(j)) test(i, j);
          } else {
            const std::size_t begin = range * kRowsPerItem, end = std::min(b.size(), begin + kRowsPerItem);
            for (std::size_t j = begin; j < end; ++j)
              if (!skip(j)) test(i, std::uint32_t(j));
          }
        } else {
          const std::size_t rest = item - first_kind;
          const std::uint32_t j = far.b[rest / a_ranges];
          const std::size_t begin = (rest % a_ranges) * kRowsPerItem, end = std::min(a.size(), begin + kRowsPerItem);
          if (!separated(b.point(j), far.bulk, eps))
            for (std::size_t i = begin; i < end; ++i)
              if (!far_in_a[i]) test(std::uint32_t(i), j);
        }
        return tests;
      },
      sink, compared);
  return compared;
}

void renumber_structures(RunResult& result, std::span<const std::uint32_t> kept, const PointSet& a) {
  if (result.partitions) {
    PartitionStructure& parts = *result.partitions;
    const std::size_t d = a.dims();
    constexpr std::uint32_t kFar = UINT32_MAX;
    std::vector<std::uint32_t> membership(a.size(), kFar);
    for (std::size_t r = 0; r < kept.size() && r < parts.membership.size(); ++r)
      membership[kept[r]] = parts.membership[r];
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (membership[i] != kFar) continue;
      membership[i] = 0;
      double nearest = INFINITY;
      for (std::size_t c = 0; c < parts.k; ++c) {
        const double distance = oracle_squared_distance(a.point(i), parts.centroids.data() + c * d, d, 1.0);
        if (distance < nearest) nearest = distance, membership[i] = std::uint32_t(c);
      }
    }
    parts.membership = std::move(membership);
    for (std::uint32_t& point : parts.replica_point) point = kept[point];
  }
  if (result.grid)
    for (std::uint32_t& point : result.grid->point_order) point = kept[point];
}

BulkSources::BulkSources(const JoinSources& sources, JoinFrame whole, int threads, bool spread_matters,
                         const RunControl* control)
    : sources_(sources),
      threads_(threads),
      far_(find_far_points(sources, whole, threads, spread_matters)),
      frame_(std::move(whole)) {
  if (far_.empty()) return;
  a_ = without_rows(*sources.a, far_.a, rows_a_, threads, control);
  if (sources.b) b_ = without_rows(*sources.b, far_.b, rows_b_, threads, control);
  frame_ = frame_.over(joint_bounds(*a_, b_ ? &*b_ : nullptr));
}

JoinSources BulkSources::rows() const {
  if (far_.empty()) return sources_;
  return {&*a_, b_ ? &*b_ : nullptr};
}

void BulkSources::join_far_points(RunResult& result, PairSink& sink, RunControl& control) const {
  if (far_.empty()) return;
  control.set_phase("far points");
  {
    PhaseTimer timer(result.stats, "far points");
    result.stats.compared_pairs += simjoin::join_far_points(sources_, far_, frame_.eps(), threads_, sink, control);
  }
  renumber_structures(result, rows_a_, *sources_.a);
  result.stats.notes.push_back(std::to_string(far_.size()) +
                               " far points (outliers) kept out of the float32 frame and joined in float64");
}

}  // namespace simjoin
