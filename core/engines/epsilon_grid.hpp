#pragma once
// The epsilon-grid of Gowanlock & Karsin: cells a hair wider than eps over a few chosen dimensions,
// non-empty cells only (B: sorted linear ids, G: point ranges, A: point ids by cell, M: per dimension
// the non-empty cell coordinates).
#include <cstdint>
#include <string>
#include <vector>

#include "core/point_set.hpp"
#include "core/run_stats.hpp"

namespace simjoin {

class EpsilonGrid {
 public:
  // At most this many indexed dimensions (3^6 = 729 neighbour cells).
  static constexpr std::size_t kMaxIndexed = 6;

  // Indexes `points`. `notes` receives the choices made (indexed dimensions, cell width).
  EpsilonGrid(const PointSet& points, double eps, std::vector<std::string>& notes);

  const GridStructure& structure() const { return grid_; }
  GridStructure take_structure() { return std::move(grid_); }
  std::size_t indexed() const { return grid_.indexed_dims.size(); }

  // Cell coordinate of point p in indexed slot s; far outside the grid it is clamped to -2 or
  // cells + 1, which keeps every neighbour of it outside too.
  std::int64_t coordinate(const float* p, std::size_t s) const;
  // True when coordinate c of slot s lies in the grid and some point has it (the M filter).
  bool occupied(std::size_t s, std::int64_t c) const;
  // Linear id of in-range cell coordinates.
  std::uint64_t linear_id(const std::int64_t* coords) const;
  // Position of the cell in cell_ids, or -1 when empty.
  std::int64_t find(std::uint64_t id) const;

  std::uint64_t memory_bytes() const;

 private:
  GridStructure grid_;
  std::vector<std::uint64_t> strides_;
  std::vector<std::vector<std::int64_t>> occupied_;  // M, sorted
};

}  // namespace simjoin
