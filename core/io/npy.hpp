#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0), little endian.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// Reads a 1-D (n, read as n x 1) or 2-D (n, d) array of float32, float64, int32 or int64 in C or
// Fortran order into float64, which holds every value exactly but int64 beyond 2^53 (counted in a
// warning on the result). Throws Error(BadInput) naming the file and what is wrong.
PointSet read_npy(const std::string& path, RunControl* control = nullptr);

// Writes the points as an (n, d) array: float32 when every value is a float32, else float64, so that
// reading it back gives the same values.
void write_npy(const std::string& path, const PointSet& points);

// An NPY version 1.0 header for a little-endian C-order array with dtype `descr` (e.g. "<u4"),
// padded with spaces to `min_size` bytes at least and to a multiple of 64, so that a header written
// before the final shape is known can later be rewritten in place with the same size.
std::string npy_header(std::string_view descr, std::span<const std::uint64_t> shape, std::size_t min_size = 0);

}  // namespace simjoin
