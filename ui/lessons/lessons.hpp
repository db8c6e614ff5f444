#pragma once
// The lessons of File > Lessons and `simjoin-studio --lesson NAME`: presets that rebuild the papers'
// figures on built-in samples with CPU engines (Korkmaz 2012, ch. 4; Gowanlock & Karsin 2018), each
// with a few sentences that say what to look at. One table, read by the menu, the option and the tests.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

struct Lesson {
  std::string name;                  // for --lesson
  std::string title;                 // the menu entry
  std::string sample;                // a built-in sample (ui/samples.hpp)
  std::vector<std::string> engines;  // run in this order; the views keep the last run
  double eps = 0;
  int k = 0;
  ViewMode view = ViewMode::Scatter;
  std::optional<std::uint32_t> pick;
  std::vector<int> recall_ks;  // where set: the approximate engine's recall at each of these k
  std::string explanation;
};

const std::vector<Lesson>& lessons();
// Null for an unknown name.
const Lesson* find_lesson(const std::string& name);
// "replication-2d, unicomp, ...", for messages.
std::string lesson_names();

}  // namespace simjoin::ui
