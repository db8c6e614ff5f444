#pragma once
// Some rows of a point set, without copying them: what the grid engines index and query (all of a
// point set, or one k-means partition's members and copies).
#include <cstdint>

#include "core/points/point_set.hpp"

namespace simjoin {

struct PointRows {
  const PointSet32* set = nullptr;
  const std::uint32_t* ids = nullptr;  // null: every row of set
  std::size_t count = 0;

  explicit PointRows(const PointSet32& all) : set(&all), count(all.size()) {}
  PointRows(const PointSet32& from, const std::uint32_t* listed, std::size_t n) : set(&from), ids(listed), count(n) {}
  std::size_t size() const { return count; }
  std::size_t dims() const { return set->dims(); }
  // Row r of these rows.
  const float* point(std::size_t r) const { return set->point(ids ? ids[r] : r); }
};

}  // namespace simjoin
