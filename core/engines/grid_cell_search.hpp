#pragma once
// cpu-grid's epsilon-grid self-join, one query cell at a time: what the Step through tab replays (GPU-SJ,
// and each partition of KMEANS-JOIN) with the engines' own grid, cell order, unicomp rule and float32
// candidates. The grid itself is the engines' own, in core/engines/detail/.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "core/join/run_stats.hpp"

namespace simjoin {

class GridCellSearch {
 public:
  // Indexes `rows` of frame.a (every row where `rows` is null; kept, not copied) and searches
  // frame.search_radius on params.threads, with params.unicomp, as cpu-grid does.
  GridCellSearch(const JoinInputs& frame, const JoinParams& params, const std::vector<std::uint32_t>* rows = nullptr);
  ~GridCellSearch();

  // The grid's cells, which are also the query cells; rows are positions in `rows` (or in frame.a).
  const GridStructure& cells() const;
  // Why the grid indexes as many dimensions as it does, for the notes.
  const std::string& choice() const;

  // Called for every candidate pair (float32 squared distance d2 within the frame's band.reject),
  // query and point as rows; the caller decides the pair with the exact test.
  using Hit = std::function<void(std::uint32_t query_row, std::uint32_t point_row, float d2)>;
  // The searches the queries of cell `cell` make, as the engine makes them; returns the distance tests.
  std::uint64_t search(std::uint32_t cell, const Hit& hit) const;

 private:
  struct Join;
  std::unique_ptr<Join> join_;
};

}  // namespace simjoin
