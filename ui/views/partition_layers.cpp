#include "ui/views/partition_layers.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "ui/format/count_text.hpp"
#include "ui/views/layer_geometry.hpp"
#include "ui/views/missed_pairs.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/replication.hpp"

namespace simjoin::ui {

namespace {

// Drawing every partition's cell and band stays readable up to this many partitions.
constexpr std::size_t kMaxCellsDrawn = 12;
// Legend rows per partition up to this k; beyond, the colours are told by the numbered centroids.
constexpr std::size_t kMaxPartitionRows = 16;
constexpr Rgb kBisector{0, 0, 0};
constexpr Rgb kCopyRing{0, 0, 0};  // legend swatch of the copy marker (a black ring)
// The approximate engine makes no copies, so the copy colour is free for the pairs it misses.
constexpr Rgb kMissedPair = kCopy;
constexpr std::size_t kMaxMissedLines = 20'000;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

bool has_partitions(const ViewInput& in, Layers& out) {
  const auto* s = in.partitions;
  if (s && s->membership.size() == in.points->size() && s->centroids.size() == s->k * in.points->dims()) return true;
  out.notes.push_back(s ? "The partition structure does not match the loaded points"
                        : "Run a k-means engine (cpu-kmeans) to see its partitions");
  return false;
}

bool approximate(const ViewInput& in) {
  const std::string suffix = "-approx";
  const std::string& engine = in.stats ? in.stats->engine : std::string();
  return engine.size() >= suffix.size() && engine.compare(engine.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// One partition teaches nothing about replication: say why the engine chose it, or how to get more.
void explain_one_partition(const ViewInput& in, Layers& out) {
  if (in.partitions->k != 1) return;
  bool automatic = false;
  for (const std::string& note : in.stats ? in.stats->notes : std::vector<std::string>())
    automatic = automatic || note.rfind("k chosen as", 0) == 0;
  out.notes.push_back(automatic
                          ? "One partition: automatic k chose k = 1, since below 4,500 points (sqrt(n / 2000) < 1.5) "
                            "one eps-grid over all points costs less than partitions, which add copies along "
                            "their borders. Set k (e.g. 8) to see KMEANS-JOIN's partitions and replication"
                          : "One partition (k = 1): nothing is copied. Set k above 1 to see replication");
}

// Why KMEANS-JOIN loses on this data, where it does: the copies, and the distance tests its partitions
// were expected to make (counted or estimated before the join) against the whole set's pairs, shown
// from half of them on, where the engines leave the partitions for the nested loop (the results panel
// has the numbers of every run).
void explain_tests(const ViewInput& in, Layers& out) {
  if (!in.stats || in.stats->estimated_tests == 0) return;
  const RunStats& stats = *in.stats;
  const std::uint64_t whole = candidate_pairs(stats.n_b == 0, stats.n, stats.n_b);
  if (2 * stats.estimated_tests < whole) return;
  out.notes.push_back(count_text(stats.replicated_points) + " copies; the partitions were expected to make " +
                      count_text(stats.estimated_tests) + " distance tests, " +
                      number(double(stats.estimated_tests) / double(std::max<std::uint64_t>(whole, 1))) +
                      " times the whole set's " + count_text(whole) + " pairs; the run made " +
                      count_text(stats.compared_pairs));
}

// The pairs the approximate engine missed, as lines between their points, with the recall they leave.
void add_missed_pairs(const ViewInput& in, Layers& out) {
  if (in.points->size() > kMaxMissedPairPoints) {
    out.notes.push_back("Missed pairs are shown for up to " + count_text(kMaxMissedPairPoints) + " points");
    return;
  }
  const MissedPairs found = missed_pairs(*in.points, *in.partitions, in.stats->eps);
  const auto& xy = *in.projected;
  for (std::size_t r = 0; r < found.missed.size() && r < kMaxMissedLines; ++r) {
    const Pair& pair = found.missed[r];
    add_segment(out, {xy[2 * pair.i], xy[2 * pair.i + 1]}, {xy[2 * pair.j], xy[2 * pair.j + 1]}, kMissedPair);
  }
  char recall[32];
  std::snprintf(recall, sizeof recall, "%.4g %%", 100 * found.recall());
  out.legend.push_back({"missed: " + count_text(found.missed.size()) + " of " + count_text(found.exact) +
                            " pairs (recall " + recall + ")",
                        kMissedPair, std::string("missed pairs (recall ") + recall + ")"});
  if (found.missed.size() > kMaxMissedLines)
    out.notes.push_back("The first " + count_text(kMaxMissedLines) + " missed pairs are drawn");
}

void add_centroids(const ViewInput& in, const ViewPlane& plane, Layers& out) {
  const auto& s = *in.partitions;
  const std::size_t d = in.points->dims();
  for (std::size_t p = 0; p < s.k; ++p) {
    const auto xy = to_plane(plane, &s.centroids[p * d]);
    out.marker_xy.insert(out.marker_xy.end(), {float(xy[0]), float(xy[1])});
    const Rgb color = category_color(p, in.palette);
    out.marker_rgb.insert(out.marker_rgb.end(), color.begin(), color.end());
    out.labels.push_back({float(xy[0]), float(xy[1]), std::to_string(p)});
  }
}

void add_copy(const ViewInput& in, Layers& out, std::uint32_t point, std::uint32_t partition) {
  out.copy_xy.insert(out.copy_xy.end(), {(*in.projected)[2 * point], (*in.projected)[2 * point + 1]});
  const Rgb color = category_color(partition, in.palette);
  out.copy_rgb.insert(out.copy_rgb.end(), color.begin(), color.end());
}

// Bisectors (cell edges) and, where the engine copies, eps-bands of the given partitions, clipped to
// the displayed points' bounds plus eps.
void add_partition_cells(const ViewInput& in, const ViewPlane& plane, Layers& out,
                         const std::vector<std::uint32_t>& partitions) {
  // One partition has no bisector and copies nothing: its "cell" would be a frame around the data.
  if (in.partitions->k < 2) return;
  const auto& xy = *in.projected;
  double low[2] = {0, 0}, high[2] = {0, 0};
  for (int axis = 0; axis < 2 && !xy.empty(); ++axis) {
    low[axis] = high[axis] = xy[axis];
    for (std::size_t i = axis; i < xy.size(); i += 2) {
      low[axis] = std::min(low[axis], double(xy[i]));
      high[axis] = std::max(high[axis], double(xy[i]));
    }
    low[axis] -= in.eps;
    high[axis] += in.eps;
  }
  const bool bands = !approximate(in);
  for (std::uint32_t p : partitions) {
    const PartitionCell cell = partition_cell_in_plane(*in.partitions, p, in.eps, plane, low, high);
    add_polygon(out, cell.cell.xy, kBisector);
    if (bands) add_polygon(out, cell.band.xy, kBand);
  }
  const std::size_t d = in.points->dims();
  out.legend.push_back({d == 2 ? std::string("bisectors (cell edges)")
                               : "traces of the " + std::to_string(d) + "-D bisector hyperplanes in the view plane",
                        kBisector, d == 2 ? "bisectors" : "bisector traces"});
  if (bands) out.legend.push_back({"eps-band: receives copies from here", kBand, "eps-band"});
  if (d > 2)
    out.notes.push_back(
        "Bisectors and bands are cut by the view plane; points lie off it, so a point may sit on "
        "the other side of a trace than its partition");
}

// "  pairs made there: 3, with points 12, 40, 77" and "  reported there: 2 of the 3" (the others
// from a higher partition both points are in): a count, then the neighbours' point ids, named as ids.
std::vector<std::string> copy_pairs_lines(const CopyPairs& made) {
  constexpr std::size_t kListed = 5;
  if (made.neighbours.empty()) return {"  pairs made there: 0"};
  std::string listed = "  pairs made there: " + count_text(made.neighbours.size()) +
                       (made.neighbours.size() == 1 ? ", with point " : ", with points ");
  for (std::size_t q = 0; q < made.neighbours.size() && q < kListed; ++q)
    listed += (q ? ", " : "") + std::to_string(made.neighbours[q]);
  if (made.neighbours.size() > kListed) listed += ", ...";
  return {listed,
          "  reported there: " + count_text(made.reported_here) + " of the " + count_text(made.neighbours.size())};
}

void explain_copies(const ViewInput& in, Layers& out) {
  const PointCopies copies = point_copies(*in.partitions, *in.points, *in.picked);
  auto& facts = out.picked_facts;
  facts.push_back({"point " + std::to_string(*in.picked) + ": home partition " + std::to_string(copies.home),
                   category_color(copies.home, in.palette)});
  if (approximate(in)) {
    facts.push_back({in.stats->engine + " copies nothing: its pairs across bisectors are missed", kDimmed});
    return;
  }
  const std::vector<CopyPairs> made =
      pairs_by_copy(*in.partitions, copies, neighbours_within(*in.points, *in.picked, in.eps));
  for (std::size_t c = 0; c < copies.copies.size(); ++c) {
    const CopyReason& copy = copies.copies[c];
    const Rgb color = category_color(copy.partition, in.palette);
    facts.push_back(
        {"copied into " + std::to_string(copy.partition) + ": h = " + number(copy.h) + " <= eps = " + number(in.eps),
         color});
    for (const std::string& line : copy_pairs_lines(made[c])) facts.push_back({line, color});
  }
  if (copies.nearest_kept)
    facts.push_back({"not into " + std::to_string(copies.nearest_kept->partition) +
                         " (nearest bisector): h = " + number(copies.nearest_kept->h) + " > eps",
                     kDimmed});
}

void partition_legend(const ViewInput& in, const std::vector<PartitionCounts>& counts, Layers& out) {
  const int group = int(out.legend_groups.size());
  out.legend_groups.push_back({"partition: own / +received / \u2212sent copies",
                               count_text(counts.size()) + " partitions: colours as in the plot", kCentroid,
                               count_text(counts.size()) + " partitions"});
  for (std::size_t p = 0; p < counts.size() && p < kMaxPartitionRows; ++p)
    out.legend.push_back({"partition " + std::to_string(p) + ": " + std::to_string(counts[p].own) + " own, receives " +
                              std::to_string(counts[p].received) + ", sends " + std::to_string(counts[p].sent),
                          category_color(p, in.palette),
                          "p" + std::to_string(p) + ": " + count_text(counts[p].own) + " / +" +
                              count_text(counts[p].received) + " / \u2212" + count_text(counts[p].sent),
                          group});
  if (counts.size() > kMaxPartitionRows)
    out.legend.push_back({"... " + std::to_string(counts.size()) + " partitions, numbered at their centroids",
                          kCentroid, "... " + std::to_string(counts.size()) + " in all", group});
}

}  // namespace

bool partition_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  if (!has_partitions(in, out)) return false;
  const auto& s = *in.partitions;
  for (std::size_t i = 0; i < colors.size(); ++i) colors[i] = category_color(s.membership[i], in.palette);
  partition_legend(in, replication_counts(s), out);
  add_centroids(in, view_plane(*in.points, in.pca, in.axes), out);
  explain_one_partition(in, out);
  if (in.picked) explain_copies(in, out);
  return true;
}

bool replication_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors) {
  if (!has_partitions(in, out)) return false;
  const auto& s = *in.partitions;
  const ViewPlane plane = view_plane(*in.points, in.pca, in.axes);
  const auto counts = replication_counts(s);
  add_centroids(in, plane, out);
  explain_one_partition(in, out);
  explain_tests(in, out);
  if (approximate(in))
    out.notes.push_back(in.stats->engine +
                        " makes no copies: pairs whose points lie on either side of a bisector "
                        "are missed, so no eps-bands are drawn");
  if (!in.selected_partition) {
    for (std::size_t i = 0; i < colors.size(); ++i) colors[i] = category_color(s.membership[i], in.palette);
    for (std::size_t r = 0; r < s.replica_point.size(); ++r)
      add_copy(in, out, s.replica_point[r], s.replica_partition[r]);
    partition_legend(in, counts, out);
    if (!s.replica_point.empty())
      out.legend.push_back({"copy: ringed, in the receiving partition's colour", kCopyRing, "copy (ringed)"});
    if (s.k > kMaxCellsDrawn) {
      out.notes.push_back("Bisectors and eps-bands of all partitions are drawn for k <= " +
                          std::to_string(kMaxCellsDrawn) + "; select a partition to see its own");
    } else {
      std::vector<std::uint32_t> all(s.k);
      for (std::uint32_t p = 0; p < s.k; ++p) all[p] = p;
      add_partition_cells(in, plane, out, all);
    }
  } else {
    const std::uint32_t p = *in.selected_partition;
    for (std::size_t i = 0; i < colors.size(); ++i)
      colors[i] = s.membership[i] == p ? category_color(p, in.palette) : kDimmed;
    // Received: other partitions' points copied into p; sent: p's points copied elsewhere.
    for (std::size_t r = 0; r < s.replica_point.size(); ++r)
      if (s.replica_partition[r] == p || s.membership[s.replica_point[r]] == p)
        add_copy(in, out, s.replica_point[r], s.replica_partition[r]);
    out.legend = {{"own points of partition " + std::to_string(p) + ": " + std::to_string(counts[p].own),
                   category_color(p, in.palette)},
                  {"received: " + std::to_string(counts[p].received) + " copies, ringed in its colour",
                   category_color(p, in.palette)},
                  {"sent: " + std::to_string(counts[p].sent) + " copies, ringed in the receiver's colour", kCopyRing},
                  {"other partitions", kDimmed}};
    add_partition_cells(in, plane, out, {p});
  }
  if (approximate(in)) add_missed_pairs(in, out);
  if (in.picked) explain_copies(in, out);
  return true;
}

}  // namespace simjoin::ui
