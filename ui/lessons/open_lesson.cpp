#include "ui/lessons/open_lesson.hpp"

#include <QDockWidget>
#include <QMainWindow>

#include "ui/format/count_text.hpp"
#include "ui/lessons/recall_by_k.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/workbench/workbench.hpp"

namespace simjoin::ui {

namespace {
QString count(std::uint64_t value) { return QString::fromStdString(count_text(value)); }

QString percent(double fraction) { return QString::number(100 * fraction, 'g', 4) + " %"; }

// The Lesson dock's panel, made on the first lesson.
LessonPanel* lesson_panel(QMainWindow& window) {
  if (auto* panel = window.findChild<LessonPanel*>()) return panel;
  auto* panel = new LessonPanel;
  auto* dock = new QDockWidget(QObject::tr("Lesson"), &window);
  dock->setObjectName("Lesson");
  dock->setWidget(panel);
  window.addDockWidget(Qt::RightDockWidgetArea, dock);
  // Beside the Results dock, as a tab of the same height, so that the text reads without scrolling.
  if (auto* results = window.findChild<QDockWidget*>("Results")) window.tabifyDockWidget(results, dock);
  return panel;
}

QString measured_line(const RunStats& stats) {
  QString line = QObject::tr("%1: %2 distance tests (%3 of all pairs), %4 pairs")
                     .arg(QString::fromStdString(stats.engine), count(stats.compared_pairs),
                          percent(stats.compared_ratio()), count(stats.pairs));
  if (stats.k > 0) line += QObject::tr(", k = %1, %2 copies").arg(stats.k).arg(count(stats.replicated_points));
  return line;
}

QString recall_line(const PointSet& points, double eps, const std::vector<int>& ks) {
  QStringList entries;
  for (const RecallAtK& r : recall_by_k(points, eps, ks))
    entries
        << QObject::tr("k = %1: %2 (%3 of %4 pairs)").arg(r.k).arg(percent(r.recall()), count(r.pairs), count(r.exact));
  return QObject::tr("Recall of cpu-kmeans-approx here: %1").arg(entries.join("; "));
}
}  // namespace

LessonPanel::LessonPanel(QWidget* parent) : QLabel(parent) {
  setWordWrap(true);
  setAlignment(Qt::AlignTop | Qt::AlignLeft);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setMargin(8);
}

void LessonPanel::present(const Lesson& lesson, const QStringList& measured) {
  QString html = "<b>" + QString::fromStdString(lesson.title).toHtmlEscaped() + "</b><p>" +
                 QString::fromStdString(lesson.explanation).toHtmlEscaped() + "</p>";
  for (const QString& line : measured) html += "<p>" + line.toHtmlEscaped() + "</p>";
  setText(html);
}

bool open_lesson(Workbench& window, const Lesson& lesson) {
  LessonPanel* panel = lesson_panel(window.dockArea());
  panel->parentWidget()->show();
  panel->parentWidget()->raise();
  panel->present(lesson, {QObject::tr("Loading sample %1 ...").arg(QString::fromStdString(lesson.sample))});
  const auto before = window.points();
  window.openSample(QString::fromStdString(lesson.sample));
  window.waitForTask();
  if (!window.points() || window.points() == before) {
    panel->present(lesson,
                   {QObject::tr("The sample %1 could not be loaded.").arg(QString::fromStdString(lesson.sample))});
    return false;
  }
  window.parameters()->setEps(lesson.eps);
  window.parameters()->setK(lesson.k);
  window.setViewMode(lesson.view);
  QStringList measured;
  for (const std::string& engine : lesson.engines) {
    const auto previous = window.currentRun();
    if (window.parameters()->setEngine(QString::fromStdString(engine))) {
      window.runJoin();
      window.waitForTask();
    }
    if (window.currentRun() == previous) {
      panel->present(lesson, measured << QObject::tr("%1 did not run.").arg(QString::fromStdString(engine)));
      return false;
    }
    measured << measured_line(window.currentRun()->result.stats);
  }
  if (!lesson.recall_ks.empty()) measured << recall_line(*window.points(), lesson.eps, lesson.recall_ks);
  if (lesson.pick) window.view()->pick(*lesson.pick);
  panel->present(lesson, measured);
  return true;
}

}  // namespace simjoin::ui
