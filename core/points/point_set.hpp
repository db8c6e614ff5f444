#pragma once
// Point sets: n points x d dimensions, row-major and contiguous. `PointSet` holds a file's own values
// in float64; `PointSet32` holds the float32 coordinates engines compute on, in the join's frame
// (core/frame/join_frame.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simjoin {

inline constexpr std::size_t kMaxDims = 1024;

// Throws Error(BadInput) unless 1 <= dims <= kMaxDims.
void check_dims(std::size_t dims);
// Throws Error(Internal) unless values == n x dims.
void check_coordinate_count(std::size_t values, std::size_t n, std::size_t dims);

// An allocator that leaves new elements uninitialised unless given a value, so that a large array
// about to be written in parallel is not first zeroed on one core (page faults on fresh memory are
// the cost of that zeroing, and they scale with threads).
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using Coordinates = std::vector<T, DefaultInitAllocator<T>>;

template <typename T>
class BasicPointSet {
 public:
  using value_type = T;

  BasicPointSet() = default;
  // n points at the origin.
  BasicPointSet(std::size_t n, std::size_t dims) : n_(n), d_(dims) {
    check_dims(dims);
    coords_.assign(n * dims, T{});
  }
  BasicPointSet(std::size_t n, std::size_t dims, Coordinates<T> coords) : n_(n), d_(dims), coords_(std::move(coords)) {
    check_dims(dims);
    check_coordinate_count(coords_.size(), n, dims);
  }
  // n points whose coordinates the caller writes next (they start undefined).
  static BasicPointSet uninitialized(std::size_t n, std::size_t dims) {
    Coordinates<T> coords;
    coords.resize(n * dims);
    return BasicPointSet(n, dims, std::move(coords));
  }

  std::size_t size() const { return n_; }
  std::size_t dims() const { return d_; }
  bool empty() const { return n_ == 0; }
  const T* data() const { return coords_.data(); }
  T* data() { return coords_.data(); }
  const T* point(std::size_t i) const { return coords_.data() + i * d_; }
  T* point(std::size_t i) { return coords_.data() + i * d_; }
  std::span<const T> coords() const { return coords_; }
  // A copy of every coordinate, row-major.
  std::vector<T> values() const { return {coords_.begin(), coords_.end()}; }

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
  Coordinates<T> coords_;
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

// Of the first `rows` rows (every row by default).
Bounds compute_bounds(const PointSet32& points, std::size_t rows = SIZE_MAX);
Bounds64 compute_bounds(const PointSet& points, std::size_t rows = SIZE_MAX);
// The bounding box of A and B together (b null, or empty, for a self-join).
Bounds joint_bounds(const PointSet32& a, const PointSet32* b);
Bounds64 joint_bounds(const PointSet& a, const PointSet* b);

// `count` distinct rows of `points` chosen at random (in their original order).
PointSet sample_points(const PointSet& points, std::size_t count, std::uint64_t seed);

// Checks every coordinate is finite; throws Error(BadInput) naming the first offending point and
// dimension, prefixed by `where` (e.g. the file name).
void require_finite(const PointSet& points, const std::string& where);

}  // namespace simjoin
