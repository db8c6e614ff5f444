#pragma once
// The epsilon-grid of Gowanlock & Karsin: cells a hair wider than the search radius (grid_cell_width in
// core/numeric/numeric_rules.hpp) over a few chosen dimensions, non-empty cells only (B: sorted cell
// coordinates, G: point ranges, A: point ids by cell, M: per dimension the non-empty cell coordinates).
// The points' coordinates are also kept in cell order, one column per dimension, so that comparing a
// query with a run of adjacent cells is one contiguous loop.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/engines/detail/point_rows.hpp"
#include "core/join/run_stats.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

// Memory of a cell grouping: coordinates, ranges and point order.
std::uint64_t cell_bytes(const GridStructure& cells);

class EpsilonGrid {
 public:
  // At most this many indexed dimensions (3^7 = 2187 neighbour rows per cell).
  static constexpr std::size_t kMaxIndexed = 8;

  // Indexes `points` for queries from `queries` (the same rows for a self-join). The cells cover
  // both sets; the indexed dimensions are as many of the widest as the cost model (grid_cost.hpp)
  // expects to be cheapest. Row numbers in the structure are positions in `points`. Builds on
  // `threads` threads (0: all cores); throws Error(Cancelled) once `control` (if any) is cancelled.
  EpsilonGrid(const PointRows& points, const PointRows& queries, bool self_join, double search_radius, int threads,
              const RunControl* control = nullptr);

  const GridStructure& structure() const { return grid_; }
  GridStructure take_structure() { return std::move(grid_); }
  std::size_t indexed() const { return grid_.indexed_dims.size(); }
  // Why this many dimensions are indexed, for the run's notes.
  const std::string& choice() const { return choice_; }
  // The cost model's estimated distance tests over all pairs of queries and points (IndexChoice).
  double tested_share() const { return tested_share_; }

  // Groups other rows (the queries of A join B) by this grid's cells, in the form of structure().
  GridStructure group(const PointRows& rows) const;

  // Cell coordinate of point p in slot s of the geometry in g (cell width, indexed dimensions,
  // origin): at least 0 and below 2^60 + 3 (see grid_cell_width in core/numeric/numeric_rules.hpp).
  static std::int64_t cell_coordinate(const GridStructure& g, const float* p, std::size_t s);
  // cell_coordinate(g, p, s) for many points: the same values, mostly without cell_floor's two
  // divisions. (x - origin) times the width's rounded inverse errs by under 2^-27 cells below 2^24
  // cells, and cell_floor's value is the floor of one within 2^-40 of the exact quotient: where the
  // product is farther than 2^-20 from an integer, both floors are the same.
  class SlotCells {
   public:
    SlotCells(const GridStructure& g, std::size_t s)
        : g_(g), s_(s), dim_(std::size_t(g.indexed_dims[s])), origin_(g.origin[s]), inverse_(1 / g.cell_width) {}
    std::int64_t operator()(const float* p) const {
      const double q = (double(p[dim_]) - origin_) * inverse_;
      if (q >= 0 && q < 0x1p24) {
        const double whole = floor_value(q);
        if (q - whole > 0x1p-20 && q - whole < 1 - 0x1p-20) return std::int64_t(whole);
      }
      return cell_coordinate(g_, p, s_);
    }

   private:
    const GridStructure& g_;
    std::size_t s_, dim_;
    double origin_, inverse_;
  };

  // True when some point has coordinate c in slot s (the M filter).
  bool occupied(std::size_t s, std::int64_t c) const;
  // The rows of cells (x - 1 .. x + 1, c[1], ..., c[m-1]) for rising x, as positions in cell order
  // of their points: contiguous because the cells are sorted with the first slot varying fastest.
  // The first row is one binary search, and each next one moves the previous one's bounds forward,
  // so that the query cells of one run find their neighbour rows in one pass over the neighbour runs.
  class RowWalk {
   public:
    // c: slots 1..m-1 of the rows (kept, not copied).
    RowWalk(const EpsilonGrid& grid, const std::int64_t* c);
    // Positions [begin, end) in cell order of the points of row x; x never below the last call's.
    std::pair<std::uint32_t, std::uint32_t> at(std::int64_t x) {
      if (!started_) {
        start(x);
      } else if (m_ > 0) {
        // Cells after the run's cells have other upper slots; the bounds stop there.
        const std::int64_t* coords = cells_.cell_coords.data();
        while (first_ < count_ && coords[std::size_t(first_) * m_] < x - 1 && in_run(first_)) ++first_;
        last_ = std::max(last_, first_);
        while (last_ < count_ && coords[std::size_t(last_) * m_] <= x + 1 && in_run(last_)) ++last_;
      }
      if (first_ == last_) return {0, 0};
      return {cells_.cell_begin[first_], cells_.cell_end[last_ - 1]};
    }

   private:
    void start(std::int64_t x);
    bool in_run(std::uint32_t cell) const {  // slots 1..m-1 of `cell` are the rows'
      const std::int64_t* x = cells_.cell_coords.data() + std::size_t(cell) * m_;
      for (int s = m_ - 1; s >= 1; --s)
        if (x[s] != c_[s]) return false;
      return true;
    }
    const GridStructure& cells_;
    const std::int64_t* c_;
    int m_;
    std::uint32_t count_, first_ = 0, last_ = 0;
    bool started_ = false;
  };
  // Coordinate k of every point, in cell order.
  const float* column(std::size_t k) const { return columns_.data() + k * grid_.point_order.size(); }

  std::uint64_t memory_bytes() const;

 private:
  // M per slot: a bit per coordinate where the slot's coordinates take at most kOccupiedBits bits
  // (a 2 MiB bitmap at most) and the bitmap is no larger than a list, else a sorted list.
  static constexpr int kOccupiedBits = 24;
  void fill_occupied();

  GridStructure grid_;
  std::vector<int> bits_;  // per slot, the bits its cell coordinates take (cell_coordinate_bits)
  std::vector<std::vector<std::uint64_t>> occupied_bits_;
  std::vector<std::vector<std::int64_t>> occupied_;
  std::vector<float> columns_;  // d columns of n coordinates, cell order
  std::string choice_;
  int threads_;
  float tested_share_ = 1;  // in the padding after threads_: the hot members keep their offsets
};

}  // namespace simjoin
