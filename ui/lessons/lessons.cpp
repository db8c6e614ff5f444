#include "ui/lessons/lessons.hpp"

namespace simjoin::ui {

const std::vector<Lesson>& lessons() {
  // A table: each lesson's settings on its first lines, its text below (clang-format would give
  // every field a line of its own).
  // clang-format off
  static const std::vector<Lesson> table = {
      {"replication-2d", "Replication in 2-D (KMEANS-JOIN)", "timezones", {"cpu-kmeans"}, 5, 8, ViewMode::Replication,
       94, {},
       "KMEANS-JOIN cuts the points into k partitions, one per k-means centroid, and joins each partition on "
       "its own. Two places within eps of each other can fall on either side of a bisector, the line halfway "
       "between two centroids; so every point closer than eps to a bisector is copied into the partition "
       "beyond it (the rings, in the colour of the partition that receives them). The list beside the view "
       "gives the picked place's distance h to each bisector: it is copied exactly where h <= eps. Under the "
       "copy, the pair it makes across the bisector: its neighbour is copied the other way too, and the pair "
       "is reported once, from the higher-numbered partition."},
      {"unicomp", "The unicomp half-search (GPU-SJ)", "timezones", {"cpu-grid"}, 5, 0, ViewMode::Grid, 288, {},
       "GPU-SJ sorts the points into cells eps wide. Two points within eps lie in the same cell or in adjacent "
       "ones, so a point needs to be tested only against the 3 x 3 cells around its own. Unicomp halves that: "
       "of two adjacent cells only one searches the other (the one whose coordinate is odd along the last "
       "axis where they differ), so every pair is tested once. The rising hatch marks the cells the picked "
       "place searches, the falling hatch those it leaves to their own points; the list beside the view "
       "counts the distance tests this saves it."},
      {"approx-recall", "Recall of APRX-KMEANS-JOIN against k", "timezones", {"cpu-kmeans-approx"}, 12, 8,
       ViewMode::Replication, std::nullopt, {2, 4, 8, 16, 32},
       "APRX-KMEANS-JOIN skips replication: each partition is joined alone and nothing is copied. It is "
       "faster, but a pair whose points lie on either side of a bisector is never tested: the red lines are "
       "the pairs it misses here. More partitions mean more bisectors, so recall tends to fall as k grows, as the "
       "table below measures on these points."},
      {"clustered", "Grid versus KMEANS-JOIN on clustered data", "clusters8d", {"cpu-grid", "cpu-kmeans"}, 1.0, 10,
       ViewMode::Partitions, std::nullopt, {},
       "Ten clusters in 8 dimensions, joined twice: by one eps-grid over all points (cpu-grid) and by "
       "KMEANS-JOIN with k = 10 (cpu-kmeans, an eps-grid inside each partition). On clustered data the "
       "partitions follow the clusters, few points lie near a bisector and replication copies little; each "
       "partition's grid fits its own cluster. Compare the distance tests and copies measured below, and "
       "the two runs in the Runs table."},
      {"uniform", "Grid versus KMEANS-JOIN on uniform data", "uniform3d", {"cpu-grid", "cpu-kmeans"}, 0.05, 10,
       ViewMode::Partitions, std::nullopt, {},
       "The same comparison on points spread uniformly in the unit cube. Now no partition border falls in "
       "an empty region: every bisector cuts through points, and KMEANS-JOIN copies many of them to stay "
       "exact. The grid needs no copies at all. Compare the copies and distance tests measured below with "
       "those of the clustered lesson."},
  };
  // clang-format on
  return table;
}

const Lesson* find_lesson(const std::string& name) {
  for (const Lesson& lesson : lessons())
    if (lesson.name == name) return &lesson;
  return nullptr;
}

std::string lesson_names() {
  std::string names;
  for (const Lesson& lesson : lessons()) names += (names.empty() ? "" : ", ") + lesson.name;
  return names;
}

}  // namespace simjoin::ui
