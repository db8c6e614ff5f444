#pragma once
// Point sets: n points x d dimensions, row-major and contiguous. `PointSet` holds a file's own values
// in float64; `PointSet32` holds the float32 coordinates engines compute on, in the join's frame
// (core/join_frame.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simjoin {

inline constexpr std::size_t kMaxDims = 1024;

// Throws Error(BadInput) unless 1 <= dims <= kMaxDims.
void check_dims(std::size_t dims);
// Throws Error(Internal) unless values == n x dims.
void check_coordinate_count(std::size_t values, std::size_t n, std::size_t dims);

template <typename T>
class BasicPointSet {
 public:
  using value_type = T;

  BasicPointSet() = default;
  BasicPointSet(std::size_t n, std::size_t dims) : n_(n), d_(dims) {
    check_dims(dims);
    coords_.resize(n * dims);
  }
  BasicPointSet(std::size_t n, std::size_t dims, std::vector<T> coords)
      : n_(n), d_(dims), coords_(std::move(coords)) {
    check_dims(dims);
    check_coordinate_count(coords_.size(), n, dims);
  }

  std::size_t size() const { return n_; }
  std::size_t dims() const { return d_; }
  bool empty() const { return n_ == 0; }
  const T* data() const { return coords_.data(); }
  T* data() { return coords_.data(); }
  const T* point(std::size_t i) const { return coords_.data() + i * d_; }
  T* point(std::size_t i) { return coords_.data() + i * d_; }
  const std::vector<T>& coords() const { return coords_; }

  // Optional per-point labels (empty, or one per point) and per-dimension names.
  std::vector<std::string> labels;
  std::vector<std::string> column_names;
  // Where the points came from (file path or generator description), for messages and reports.
  std::string source;
  // The type the values had in the file ("float64", "float32", "int64", "text"), for `simjoin info`.
  std::string source_type = "float64";
  // Non-fatal remarks made while loading.
  std::vector<std::string> warnings;

 private:
  std::size_t n_ = 0;
  std::size_t d_ = 0;
  std::vector<T> coords_;
};

using PointSet = BasicPointSet<double>;
using PointSet32 = BasicPointSet<float>;

// Per-dimension minimum and maximum; empty vectors for an empty set.
template <typename T>
struct BasicBounds {
  std::vector<T> low, high;
};
using Bounds = BasicBounds<float>;
using Bounds64 = BasicBounds<double>;

Bounds compute_bounds(const PointSet32& points);
Bounds64 compute_bounds(const PointSet& points);

// `count` distinct rows of `points` chosen at random (in their original order).
PointSet sample_points(const PointSet& points, std::size_t count, std::uint64_t seed);

// Checks every coordinate is finite; throws Error(BadInput) naming the first offending point and
// dimension, prefixed by `where` (e.g. the file name).
void require_finite(const PointSet& points, const std::string& where);

}  // namespace simjoin
