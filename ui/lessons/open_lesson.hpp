#pragma once
// Opens a lesson (lessons.hpp) in the window (ui/workbench/workbench.hpp): its sample, parameters, view and picked
// point, its engines run one after the other, and its explanation with what those runs measured in the Lesson dock.
#include <QLabel>

#include "ui/lessons/lessons.hpp"

namespace simjoin::ui {

class Workbench;

// The Lesson dock's text: the lesson's title, explanation and measurements.
class LessonPanel : public QLabel {
  Q_OBJECT

 public:
  explicit LessonPanel(QWidget* parent = nullptr);
  void present(const Lesson& lesson, const QStringList& measured);
};

// Blocks, processing events, until the sample is loaded and every run has finished; false, with the
// reason in the Lesson dock, when one of them fails.
bool open_lesson(Workbench& window, const Lesson& lesson);

}  // namespace simjoin::ui
