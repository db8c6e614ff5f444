#pragma once
// The epsilon-grid join, shared by cpu-grid (one grid) and cpu-kmeans (one grid per partition).
// Work comes in tasks of a few query points: of one query cell, or of consecutive query cells that
// differ only in the first indexed dimension. A task looks its neighbour cells up as rows of three
// cells along the first indexed dimension: they are adjacent in the cells' order
// (grid_cell_order.hpp), so a row is one contiguous run of points, which each query of the cell
// then scans column by column (a vectorised loop). The rows of a task's successive cells lie along
// the same runs of cells, so one binary search per neighbour run finds them all (EpsilonGrid::RowWalk):
// where cells hold a point or two, as in 2-D and 3-D data, that is most of the saving.
//
// unicomp (self-joins): a cell searches the adjacent cells whose last differing indexed dimension k
// has an odd coordinate in it (Gowanlock & Karsin). For k >= 1 the first dimension is left free, so
// whole rows are searched or skipped; for k = 0 (the left and right neighbours in the own row) the
// parity of the first coordinate decides. Inside the own cell each query meets only the points after
// it in cell order. Two adjacent cells differ in parity in their last differing dimension, so exactly
// one of them searches the other: each pair is compared once.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/engines/detail/epsilon_grid.hpp"
#include "core/join/engine.hpp"
#include "core/numeric/numeric_rules.hpp"

namespace simjoin {

struct GridTask {
  std::uint32_t cell;        // the first query cell: index into the query cells
  std::uint32_t cells;       // how many consecutive query cells, all alike but in the first slot
  std::uint32_t begin, end;  // their queries' positions in the query cells' order
};

// Tasks hold at most this many queries, so that progress and cancel stay prompt even when one cell
// holds most of the points.
inline constexpr std::uint32_t kGridTaskQueries = 64;

class GridJoin {
 public:
  // Indexes `points` for `queries` (the same rows for a self-join, rows of the frame's sets in
  // `frame`) and groups the queries by cell; searches frame.search_radius, on params.threads and, for
  // self-joins, with params.unicomp. Candidates are the pairs whose float32 squared distance is at
  // most frame.band.reject. The build throws Error(Cancelled) once `control` (if any) is cancelled.
  GridJoin(const PointRows& points, const PointRows& queries, bool self_join, const JoinInputs& frame,
           const JoinParams& params, const RunControl* control = nullptr);

  const EpsilonGrid& grid() const { return grid_; }
  // The queries grouped by the grid's cells: for a self-join the grid's own structure.
  const GridStructure& query_cells() const { return self_ ? grid_.structure() : grouped_; }
  // The work, in cell order; with one_cell_each, every task holds queries of one cell only.
  std::vector<GridTask> tasks(bool one_cell_each = false) const;
  std::uint64_t memory_bytes() const { return grid_.memory_bytes() + cell_bytes(grouped_); }
  // The grid's structure, for the views; the join cannot run afterwards.
  GridStructure take_structure() { return grid_.take_structure(); }

  // The distance tests of one task; returns how many. Calls hit(query_row, point_row, d2), rows
  // being positions in query_rows and in the grid's points and d2 the float32 squared distance, for
  // every candidate (d2 <= reject); the caller decides it with the exact test. A self-join without
  // unicomp meets each pair from both sides.
  template <typename Hit>
  std::uint64_t run(const GridTask& task, Hit&& hit) const;

 private:
  static constexpr std::size_t kMax = EpsilonGrid::kMaxIndexed;
  // A row of neighbour cells: the offset in indexed slots 1..m-1 (slot 0 spans -1..+1).
  struct Row {
    int last = -1;  // last non-zero slot; -1 for the own row
    std::int8_t delta[kMax] = {};
  };

  // A task's queries: their rows, and where their coordinates are read.
  template <std::size_t D>
  struct TaskQueries {
    std::uint32_t row[kGridTaskQueries];
    const float* point[kGridTaskQueries];
    float own_columns[D > 0 && D <= 8 ? kGridTaskQueries* D : 1];
  };

  // run and scan for D dimensions; D = 0 for any other number.
  template <std::size_t D, typename Hit>
  std::uint64_t run_task(const GridTask& task, Hit& hit) const;
  template <std::size_t D>
  void load_queries(const GridTask& task, TaskQueries<D>& queries) const;
  template <std::size_t D, typename Hit>
  std::uint64_t scan(const float* q, std::uint32_t query_row, std::uint32_t begin, std::uint32_t end, Hit& hit) const;

  PointRows query_rows_;
  bool self_, unicomp_;
  float reject_;
  std::size_t d_;
  EpsilonGrid grid_;
  GridStructure grouped_;  // A join B: the queries by cell
  std::vector<Row> rows_;
};

template <std::size_t D, typename Hit>
std::uint64_t GridJoin::scan(const float* q, std::uint32_t query_row, std::uint32_t begin, std::uint32_t end,
                             Hit& hit) const {
  // The sums run over the dimensions in order from 0, as in squared_distance, so results match it
  // exactly. With D known, one loop computes whole distances in registers; otherwise the sums are
  // built one dimension at a time.
  constexpr std::uint32_t kBlock = 128;
  float sum[kBlock];
  const std::vector<std::uint32_t>& point_order = grid_.structure().point_order;
  for (std::uint32_t first = begin; first < end; first += kBlock) {
    const std::uint32_t len = std::min(kBlock, end - first);
    if constexpr (D > 0) {
      const float* column[D];
      for (std::size_t k = 0; k < D; ++k) column[k] = grid_.column(k) + first;
      // Candidates counted in the same vectorised loop: most blocks of sparse data hold none, and
      // then skip the loop that picks them out.
      std::uint32_t candidates = 0;
      for (std::uint32_t t = 0; t < len; ++t) {
        float total = 0;
        for (std::size_t k = 0; k < D; ++k) {
          const float diff = q[k] - column[k][t];
          total += diff * diff;
        }
        sum[t] = total;
        candidates += total <= reject_;
      }
      if (candidates == 0) continue;
    } else {
      std::fill_n(sum, len, 0.0f);
      for (std::size_t k = 0; k < d_; ++k) {
        const float qk = q[k];
        const float* column = grid_.column(k) + first;
        for (std::uint32_t t = 0; t < len; ++t) {
          const float diff = qk - column[t];
          sum[t] += diff * diff;
        }
      }
    }
    for (std::uint32_t t = 0; t < len; ++t)
      if (sum[t] <= reject_) hit(query_row, point_order[first + t], sum[t]);
  }
  return end > begin ? end - begin : 0;
}

template <typename Hit>
std::uint64_t GridJoin::run(const GridTask& task, Hit&& hit) const {
  switch (d_) {
    case 1:
      return run_task<1>(task, hit);
    case 2:
      return run_task<2>(task, hit);
    case 3:
      return run_task<3>(task, hit);
    case 4:
      return run_task<4>(task, hit);
    case 5:
      return run_task<5>(task, hit);
    case 6:
      return run_task<6>(task, hit);
    case 7:
      return run_task<7>(task, hit);
    case 8:
      return run_task<8>(task, hit);
    default:
      return run_task<0>(task, hit);
  }
}

template <std::size_t D>
void GridJoin::load_queries(const GridTask& task, TaskQueries<D>& queries) const {
  const GridStructure& cells = query_cells();
  // A self-join's queries are the grid's points: their coordinates are read from the columns, in
  // cell order, rather than one cache miss each from the rows in file order.
  for (std::uint32_t i = 0; i < task.end - task.begin; ++i) {
    queries.row[i] = cells.point_order[task.begin + i];
    queries.point[i] = query_rows_.point(queries.row[i]);
    if constexpr (D > 0 && D <= 8)
      if (self_) {
        float* own = queries.own_columns + i * D;
        for (std::size_t k = 0; k < D; ++k) own[k] = grid_.column(k)[task.begin + i];
        queries.point[i] = own;
      }
  }
}

template <std::size_t D, typename Hit>
std::uint64_t GridJoin::run_task(const GridTask& task, Hit& hit) const {
  const GridStructure& cells = query_cells();
  const std::size_t m = grid_.indexed();
  // The first cell's coordinates; slots 1..m-1 are those of every cell of the task.
  std::int64_t c[kMax] = {};
  bool ok[kMax][3];
  for (std::size_t s = 0; s < m; ++s) {
    c[s] = cells.cell_coords[task.cell * m + s];
    for (int o = -1; o <= 1 && s > 0; ++o) ok[s][o + 1] = grid_.occupied(s, c[s] + o);
  }
  TaskQueries<D> queries;
  load_queries<D>(task, queries);
  const std::uint32_t* query_row = queries.row;
  const float* const* q = queries.point;
  std::uint64_t tests = 0;
  for (const Row& row : rows_) {
    if (row.last >= 0) {
      if (unicomp_ && (c[row.last] & 1) == 0) continue;
      bool present = true;
      for (std::size_t s = 1; s < m && present; ++s) present = ok[s][row.delta[s] + 1];
      if (!present) continue;
    }
    std::int64_t centre[kMax];
    for (std::size_t s = 0; s < m; ++s) centre[s] = c[s] + row.delta[s];
    EpsilonGrid::RowWalk walk(grid_, centre);
    for (std::uint32_t cell = task.cell; cell < task.cell + task.cells; ++cell) {
      const std::uint32_t first = std::max(task.begin, cells.cell_begin[cell]) - task.begin;
      const std::uint32_t last = std::min(task.end, cells.cell_end[cell]) - task.begin;
      const std::int64_t x = m ? cells.cell_coords[cell * m] : 0;
      const auto scan_all = [&](std::uint32_t begin, std::uint32_t end) {
        if (begin < end)
          for (std::uint32_t i = first; i < last; ++i) tests += scan<D>(q[i], query_row[i], begin, end, hit);
      };
      if (row.last >= 0 || !self_) {
        const auto [begin, end] = walk.at(x);
        scan_all(begin, end);
        continue;
      }
      // The own row of a self-join: positions in cell order are the same for queries and points.
      const std::uint32_t own_begin = cells.cell_begin[cell], own_end = cells.cell_end[cell];
      for (std::uint32_t i = first; i < last; ++i) {
        const std::uint32_t at = task.begin + i;
        tests += scan<D>(q[i], query_row[i], at + 1, own_end, hit);
        if (!unicomp_) tests += scan<D>(q[i], query_row[i], own_begin, at, hit);
      }
      if (!unicomp_ || (x & 1) != 0) {
        const auto [begin, end] = walk.at(x);
        scan_all(begin, own_begin);
        scan_all(own_end, end);
      }
    }
  }
  return tests;
}

}  // namespace simjoin
