#pragma once
// The step-through of a join, computed without any graphics: KMEANS-JOIN (Korkmaz 2012, ch. 4: the
// k-means rounds with Lloyd's stop rule, the replication into each partition, each partition's join)
// and GPU-SJ (Gowanlock & Karsin 2018: the cells visited in order, each searching the neighbour cells
// unicomp gives it). The replay runs the engines' own parts (k-means, the bisector test, the
// epsilon-grid join) on the frame run_engine builds, so that the counters after the last step equal
// the statistics of cpu-kmeans and cpu-grid on the same points. GPU-INLJ (Korkmaz 2012, sec. 4.2: chunks
// of points rotating through shared memory, one round at a time) is replayed on the same frame and its
// counters equal cpu-nlj's, the nested loop it reorders.
#include <cstdint>
#include <string>
#include <vector>

#include "core/points/point_set.hpp"

namespace simjoin::ui {

// Points the step-through animates at most: the user's data is sampled down to this.
inline constexpr std::size_t kMaxStepPoints = 1500;

struct StepCounters {
  std::uint64_t distance_tests = 0;  // as RunStats::compared_pairs
  std::uint64_t candidates = 0;      // tests within the float32 bound, handed to the exact test
  std::uint64_t pairs = 0;           // pairs reported so far
  std::uint64_t copies = 0;          // as RunStats::replicated_points
};

enum class StepKind { KMeansRound, Replication, PartitionJoin, CellSearch, BlockRound };

struct JoinStep {
  StepKind kind = StepKind::KMeansRound;
  std::string text;       // what happens in this step, one sentence
  StepCounters counters;  // totals after the step
  // KMeansRound: index into rounds; Replication, PartitionJoin: the partition; CellSearch: the cell;
  // BlockRound: the round (block b holds chunk (b + round) mod chunks in shared memory).
  std::size_t state = 0;
  std::vector<std::uint32_t> focus;     // points in focus: the partition's, or the visited cell's
  std::vector<std::uint32_t> searched;  // CellSearch: points of the neighbour cells the cell searches
  std::vector<std::uint32_t> skipped;   // CellSearch: points of the neighbour cells unicomp skips
  std::vector<std::uint32_t> searched_cells, skipped_cells;  // CellSearch: those cells
};

// The centroids and memberships after one k-means round (round 0: the k-means++ seeds).
struct KMeansRound {
  std::vector<double> centroids;          // k x d, file coordinates
  std::vector<std::uint32_t> membership;  // per point
  double moved = 0;                       // the largest centroid move of this round (file units)
};

struct StepThrough {
  std::string algorithm;            // "KMEANS-JOIN", "GPU-SJ" or "GPU-INLJ"
  std::string engine;               // the CPU engine whose statistics the final counters equal
  PointSet points;                  // the points stepped through (a region of the user's)
  std::vector<std::uint32_t> rows;  // each point's row in the user's data
  std::size_t total_points = 0;     // points in the user's data
  std::size_t far_left_out = 0;     // far outliers left out of the sample (core/frame/far_points.hpp)
  double eps = 0;                   // the eps stepped through (scaled for a region)
  std::size_t k = 0;
  std::vector<KMeansRound> rounds;
  std::vector<std::uint32_t> copy_point, copy_partition;  // the copies replication made, in order
  // GPU-SJ's grid in file coordinates: cell c covers [origin + c w, origin + (c + 1) w) along each
  // indexed dimension; cell_coords holds indexed_dims.size() integers per non-empty cell.
  std::vector<int> indexed_dims;
  std::vector<double> grid_origin;
  double cell_width = 0;
  std::vector<std::int64_t> cell_coords;
  // GPU-INLJ: chunk c holds points [c chunk_points, (c + 1) chunk_points); `chunks` is odd (padded
  // with an empty chunk where needed) so that the rotation meets every pair of chunks once.
  std::size_t chunk_points = 0, chunks = 0;
  std::vector<JoinStep> steps;
  std::vector<std::string> notes;  // choices the replay made, as the engines note them

  bool sampled() const { return points.size() < total_points; }
  const StepCounters& final_counters() const { return steps.back().counters; }
};

// At most `max_points` of the points, without far outliers (the engines join those apart, in float64,
// which the step-through does not show). Beyond `max_points`, every spread-th of the spread x
// max_points points nearest to the point where the file is densest (spread up to the file's size over
// max_points): a wider spread shows more of the data's shape around that spot, where one blob would
// fill the picture. eps is scaled so that a point of the region has as many neighbours as a point of
// the file has at `eps` (the region's eps is the run's; a note says so).
StepThrough sample_for_steps(const PointSet& points, double eps, std::size_t spread,
                             std::size_t max_points = kMaxStepPoints);

// The spreads the replays take. KMEANS-JOIN's partitions and copies show across clusters and gaps:
// on the cities, 16 gives a map of towns cut by bisectors with rings where copies cross them, where
// the 1,500 points nearest to the densest spot are a featureless disc, evenly copied. GPU-SJ's cells
// and GPU-INLJ's chunks read best on that disc: 120 cells of a visible size, where the wider regions
// have cells too small to see (spread 4: 578) or one-dimensional strips (16, the cost model's choice).
inline constexpr std::size_t kKMeansStepSpread = 16, kGridStepSpread = 1;

// KMEANS-JOIN with k partitions (1 <= k <= points) and the engines' k-means seed, as cpu-kmeans runs
// it on one thread. Throws Error(Usage) for a k out of range.
StepThrough kmeans_join_steps(const PointSet& points, double eps, std::size_t k, std::uint64_t seed = 1);

// GPU-SJ's search with unicomp, as cpu-grid runs it (the same grid, cell order and unicomp rule).
StepThrough grid_join_steps(const PointSet& points, double eps);

// GPU-INLJ's block rotation, round by round, with gpu-inlj's chunks of 128 points (smaller chunks on
// fewer than 640 points, so that the rotation has rounds to show).
StepThrough inlj_steps(const PointSet& points, double eps);

}  // namespace simjoin::ui
