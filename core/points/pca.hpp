#pragma once
// Principal component analysis of a point set, for the 2-D views. Fitted on a random sample when the
// set is large (the axes barely move), then applied to every point.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct Pca {
  std::size_t dims = 0;
  std::vector<double> mean;        // per dimension
  std::vector<double> components;  // dims x dims, row c is the c-th axis (unit length)
  std::vector<double> variance;    // per axis, descending
  std::size_t sample_size = 0;     // points the axes were fitted on

  // Share of the total variance along axis c (0 when the data has no variance).
  double explained(std::size_t c) const;
};

inline constexpr std::size_t kPcaSample = 200000;

// Fits on all points when n <= max_sample, else on max_sample points drawn with `seed`. With a
// control, checks it for a cancel every few thousand points. Throws Error(BadInput) for an empty set.
Pca fit_pca(const PointSet& points, std::size_t max_sample = kPcaSample, std::uint64_t seed = 1,
            const RunControl* control = nullptr);
// The same on float32 points, each coordinate widened exactly as it is read: the same axes as on a
// float64 copy, without making one.
Pca fit_pca(const PointSet32& points, std::size_t max_sample = kPcaSample, std::uint64_t seed = 1,
            const RunControl* control = nullptr);

// Coordinates of every point along axes a and b: n x 2, row-major.
std::vector<float> project_2d(const PointSet& points, const Pca& pca, std::size_t a, std::size_t b);

// Raw dimensions a and b of every point: n x 2, row-major.
std::vector<float> select_2d(const PointSet& points, std::size_t a, std::size_t b);

}  // namespace simjoin
