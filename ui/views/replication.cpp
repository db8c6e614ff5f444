#include "ui/views/replication.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/error.hpp"

namespace simjoin::ui {

namespace {

void check_partition(std::uint32_t p, std::size_t k, const char* what, std::size_t index) {
  if (p >= k)
    fail(ErrorKind::BadInput, std::string(what) + " " + std::to_string(index) + " names partition " +
                                  std::to_string(p) + ", but k = " + std::to_string(k));
}

void check_replicas(const PartitionStructure& s) {
  if (s.replica_point.size() != s.replica_partition.size())
    fail(ErrorKind::BadInput, "replica point and partition lists differ in length");
  for (std::size_t r = 0; r < s.replica_point.size(); ++r) {
    if (s.replica_point[r] >= s.membership.size())
      fail(ErrorKind::BadInput, "replica " + std::to_string(r) + " names point " + std::to_string(s.replica_point[r]) +
                                    " of " + std::to_string(s.membership.size()));
    check_partition(s.replica_partition[r], s.k, "replica", r);
  }
}

// Keeps the part of `poly` where a*x + b*y <= c (one Sutherland-Hodgman step).
Polygon2d clip(const Polygon2d& poly, double a, double b, double c) {
  Polygon2d out;
  const std::size_t m = poly.xy.size() / 2;
  for (std::size_t v = 0; v < m; ++v) {
    const double x0 = poly.xy[2 * v], y0 = poly.xy[2 * v + 1];
    const double x1 = poly.xy[2 * ((v + 1) % m)], y1 = poly.xy[2 * ((v + 1) % m) + 1];
    const double f0 = a * x0 + b * y0 - c, f1 = a * x1 + b * y1 - c;
    if (f0 <= 0) out.xy.insert(out.xy.end(), {x0, y0});
    if ((f0 < 0) != (f1 < 0) && f0 != f1) {
      const double t = f0 / (f0 - f1);
      out.xy.insert(out.xy.end(), {x0 + t * (x1 - x0), y0 + t * (y1 - y0)});
    }
  }
  return out;
}

}  // namespace

std::vector<PartitionCounts> replication_counts(const PartitionStructure& s) {
  std::vector<PartitionCounts> counts(s.k);
  for (std::size_t i = 0; i < s.membership.size(); ++i) {
    check_partition(s.membership[i], s.k, "point", i);
    ++counts[s.membership[i]].own;
  }
  check_replicas(s);
  for (std::size_t r = 0; r < s.replica_point.size(); ++r) {
    ++counts[s.replica_partition[r]].received;
    ++counts[s.membership[s.replica_point[r]]].sent;
  }
  return counts;
}

std::vector<std::uint32_t> copies_per_point(const PartitionStructure& s) {
  check_replicas(s);
  std::vector<std::uint32_t> copies(s.membership.size(), 0);
  for (std::uint32_t point : s.replica_point) ++copies[point];
  return copies;
}

std::vector<std::uint32_t> received_by(const PartitionStructure& s, std::uint32_t partition) {
  check_replicas(s);
  std::vector<std::uint32_t> points;
  for (std::size_t r = 0; r < s.replica_point.size(); ++r)
    if (s.replica_partition[r] == partition) points.push_back(s.replica_point[r]);
  std::sort(points.begin(), points.end());
  return points;
}

double bisector_distance(const double* x, const double* ci, const double* cj, std::size_t d) {
  double to_j = 0, to_i = 0, between = 0;
  for (std::size_t t = 0; t < d; ++t) {
    to_j += (x[t] - cj[t]) * (x[t] - cj[t]);
    to_i += (x[t] - ci[t]) * (x[t] - ci[t]);
    between += (ci[t] - cj[t]) * (ci[t] - cj[t]);
  }
  return (to_j - to_i) / (2 * std::sqrt(between));
}

PointCopies point_copies(const PartitionStructure& s, const PointSet& points, std::uint32_t point) {
  check_replicas(s);
  const std::size_t d = points.dims();
  if (point >= s.membership.size() || s.centroids.size() != s.k * d)
    fail(ErrorKind::BadInput, "point " + std::to_string(point) + " is not in the partition structure");
  PointCopies result;
  result.home = s.membership[point];
  check_partition(result.home, s.k, "point", point);
  const double* ci = &s.centroids[result.home * d];
  std::vector<bool> copied(s.k, false);
  for (std::size_t r = 0; r < s.replica_point.size(); ++r)
    if (s.replica_point[r] == point) copied[s.replica_partition[r]] = true;
  for (std::uint32_t j = 0; j < s.k; ++j) {
    if (j == result.home) continue;
    const CopyReason reason{j, bisector_distance(points.point(point), ci, &s.centroids[j * d], d)};
    if (copied[j])
      result.copies.push_back(reason);
    else if (!result.nearest_kept || reason.h < result.nearest_kept->h)
      result.nearest_kept = reason;
  }
  return result;
}

std::vector<CopyPairs> pairs_by_copy(const PartitionStructure& s, const PointCopies& copies,
                                     const std::vector<std::uint32_t>& neighbours) {
  // The partitions holding the point and each neighbour: homes, then copies.
  std::vector<std::uint32_t> mine{copies.home};
  for (const CopyReason& copy : copies.copies) mine.push_back(copy.partition);
  std::vector<std::vector<std::uint32_t>> theirs(neighbours.size());
  for (std::size_t n = 0; n < neighbours.size(); ++n) theirs[n].push_back(s.membership.at(neighbours[n]));
  for (std::size_t r = 0; r < s.replica_point.size(); ++r) {
    const auto at = std::lower_bound(neighbours.begin(), neighbours.end(), s.replica_point[r]);
    if (at != neighbours.end() && *at == s.replica_point[r])
      theirs[at - neighbours.begin()].push_back(s.replica_partition[r]);
  }
  const auto highest_common = [&](const std::vector<std::uint32_t>& other) {
    std::optional<std::uint32_t> best;
    for (std::uint32_t c : other)
      if (std::find(mine.begin(), mine.end(), c) != mine.end() && (!best || c > *best)) best = c;
    return best;
  };
  std::vector<CopyPairs> result;
  for (const CopyReason& copy : copies.copies) {
    CopyPairs pairs{copy.partition, {}, 0};
    for (std::size_t n = 0; n < neighbours.size(); ++n) {
      if (theirs[n].front() != copy.partition) continue;
      pairs.neighbours.push_back(neighbours[n]);
      pairs.reported_here += highest_common(theirs[n]) == copy.partition;
    }
    result.push_back(std::move(pairs));
  }
  return result;
}

PartitionCell partition_cell_in_plane(const PartitionStructure& s, std::uint32_t partition, double eps,
                                      const ViewPlane& plane, const double low[2], const double high[2]) {
  PartitionCell result;
  const std::size_t d = plane.origin.size();
  if (s.k == 0 || s.centroids.size() != s.k * d || partition >= s.k) return result;
  const Polygon2d box{{low[0], low[1], high[0], low[1], high[0], high[1], low[0], high[1]}};
  result.cell = box;
  result.band = box;
  const double* ci = &s.centroids[partition * d];
  for (std::size_t j = 0; j < s.k; ++j) {
    if (j == partition) continue;
    const double* cj = &s.centroids[j * d];
    // Closer to c_i than to c_j:  w . x <= c with w = 2 (c_j - c_i), c = |c_j|^2 - |c_i|^2; on the plane
    // x = o + s u + t v that is (w . u) s + (w . v) t <= c - w . o.
    double wu = 0, wv = 0, wo = 0, c = 0, norm2 = 0;
    for (std::size_t t = 0; t < d; ++t) {
      const double w = 2 * (cj[t] - ci[t]);
      wu += w * plane.u[t];
      wv += w * plane.v[t];
      wo += w * plane.origin[t];
      c += cj[t] * cj[t] - ci[t] * ci[t];
      norm2 += w * w;
    }
    if (norm2 == 0) continue;  // coincident centroids share the whole space
    result.cell = clip(result.cell, wu, wv, c - wo);
    result.band = clip(result.band, wu, wv, c - wo + eps * std::sqrt(norm2));
  }
  return result;
}

}  // namespace simjoin::ui
