#pragma once
// The one point-set type: n points x d dimensions, float32, row-major and contiguous.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simjoin {

inline constexpr std::size_t kMaxDims = 1024;

class PointSet {
 public:
  PointSet() = default;
  // Throws Error(BadInput) unless 1 <= dims <= kMaxDims.
  PointSet(std::size_t n, std::size_t dims);
  PointSet(std::size_t n, std::size_t dims, std::vector<float> coords);

  std::size_t size() const { return n_; }
  std::size_t dims() const { return d_; }
  bool empty() const { return n_ == 0; }
  const float* data() const { return coords_.data(); }
  float* data() { return coords_.data(); }
  const float* point(std::size_t i) const { return coords_.data() + i * d_; }
  float* point(std::size_t i) { return coords_.data() + i * d_; }
  const std::vector<float>& coords() const { return coords_; }

  // Optional per-point labels (empty, or one per point) and per-dimension names.
  std::vector<std::string> labels;
  std::vector<std::string> column_names;
  // Where the points came from (file path or generator description), for messages and reports.
  std::string source;
  // Non-fatal remarks made while loading (e.g. float64 precision loss).
  std::vector<std::string> warnings;

 private:
  std::size_t n_ = 0;
  std::size_t d_ = 0;
  std::vector<float> coords_;
};

// Per-dimension minimum and maximum; empty vectors for an empty set.
struct Bounds {
  std::vector<float> low, high;
};
Bounds compute_bounds(const PointSet& points);

// Checks every coordinate is finite; throws Error(BadInput) naming the first offending point and
// dimension, prefixed by `where` (e.g. the file name).
void require_finite(const PointSet& points, const std::string& where);

}  // namespace simjoin
