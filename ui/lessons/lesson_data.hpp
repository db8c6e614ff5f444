#pragma once
// A lesson on the user's own points instead of its sample: whether it can run there, and why not.
// (The point it picks is ui/views/picking.hpp's densest.)
#include <string>

#include "core/points/point_set.hpp"
#include "ui/lessons/lessons.hpp"

namespace simjoin::ui {

// Empty where `lesson` can run on `points`; else why not, in a sentence.
std::string lesson_refusal(const Lesson& lesson, const PointSet& points);
// Whether `points` is a built-in sample (ui/samples.hpp: its source "sample NAME") rather than a file.
bool from_sample(const PointSet& points);

}  // namespace simjoin::ui
