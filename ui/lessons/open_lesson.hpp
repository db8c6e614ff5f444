#pragma once
// Opens a lesson (lessons.hpp) in the window (ui/workbench/workbench.hpp): on the user's loaded points (with
// the eps the panel holds and a point in a dense region picked), else on its sample with its own eps and
// point; its engines run one after the other, and its explanation with what those runs measured in the
// Lesson dock, which offers the sample where the user's points were used or could not be.
#include <QLabel>

#include "ui/lessons/lessons.hpp"

namespace simjoin::ui {

class Workbench;

// The Lesson dock's text: the lesson's title, explanation and measurements.
class LessonPanel : public QLabel {
  Q_OBJECT

 public:
  explicit LessonPanel(QWidget* parent = nullptr);
  // `offer_sample`: a link that opens the lesson on its sample.
  void present(const Lesson& lesson, const QStringList& measured, bool offer_sample = false);

 signals:
  void sampleRequested(const simjoin::ui::Lesson* lesson);

 private:
  const Lesson* lesson_ = nullptr;
};

// Blocks, processing events, until the points are loaded and every run has finished; false, with the
// reason in the Lesson dock, when the lesson cannot run on the loaded points or a run fails. The
// loaded points are used unless there are none or they are a built-in sample.
bool open_lesson(Workbench& window, const Lesson& lesson);
// The lesson on its own sample, whatever is loaded.
bool open_lesson_sample(Workbench& window, const Lesson& lesson);

}  // namespace simjoin::ui
