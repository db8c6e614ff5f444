#include "ui/lessons/lesson_data.hpp"

#include <algorithm>

namespace simjoin::ui {

std::string lesson_refusal(const Lesson& lesson, const PointSet& points) {
  // k-means needs a few points a partition; the others need some pairs to show.
  const std::size_t needed = std::max<std::size_t>(20, 4 * std::size_t(std::max(lesson.k, 1)));
  if (points.size() < needed)
    return "the lesson needs at least " + std::to_string(needed) + " points, and " + points.source + " holds " +
           std::to_string(points.size());
  return {};
}

bool from_sample(const PointSet& points) { return points.source.rfind("sample ", 0) == 0; }

}  // namespace simjoin::ui
