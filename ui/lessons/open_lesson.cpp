#include "ui/lessons/open_lesson.hpp"

#include <QDockWidget>
#include <QMainWindow>

#include "ui/format/count_text.hpp"
#include "ui/lessons/lesson_data.hpp"
#include "ui/lessons/recall_by_k.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/picking.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/workbench/workbench.hpp"

namespace simjoin::ui {

namespace {
// Above this, the recall table's five joins and its exact one would keep a lesson waiting.
constexpr std::size_t kMostRecallPoints = 200000;

QString count(std::uint64_t value) { return QString::fromStdString(count_text(value)); }

QString percent(double fraction) { return QString::number(100 * fraction, 'g', 4) + " %"; }

// The Lesson dock's panel, made on the first lesson, shown and raised.
LessonPanel* lesson_panel(Workbench& workbench) {
  QMainWindow& window = workbench.dockArea();
  auto* panel = window.findChild<LessonPanel*>();
  if (!panel) {
    panel = new LessonPanel;
    auto* dock = new QDockWidget(QObject::tr("Lesson"), &window);
    dock->setObjectName("Lesson");
    dock->setWidget(panel);
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    // Beside the Results dock, as a tab of the same height, so that the text reads without scrolling.
    if (auto* results = window.findChild<QDockWidget*>("Results")) window.tabifyDockWidget(results, dock);
    QObject::connect(panel, &LessonPanel::sampleRequested, panel,
                     [&workbench](const Lesson* lesson) { open_lesson_sample(workbench, *lesson); });
  }
  panel->parentWidget()->show();
  panel->parentWidget()->raise();
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
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  setMargin(8);
  connect(this, &QLabel::linkActivated, this, [this] {
    if (lesson_) emit sampleRequested(lesson_);
  });
}

void LessonPanel::present(const Lesson& lesson, const QStringList& measured, bool offer_sample) {
  lesson_ = &lesson;
  QString html = "<b>" + QString::fromStdString(lesson.title).toHtmlEscaped() + "</b><p>" +
                 QString::fromStdString(lesson.explanation).toHtmlEscaped() + "</p>";
  for (const QString& line : measured) html += "<p>" + line.toHtmlEscaped() + "</p>";
  if (offer_sample)
    html += "<p><a href=\"sample\">" +
            tr("Open the lesson on its sample, %1").arg(QString::fromStdString(lesson.sample)).toHtmlEscaped() +
            "</a></p>";
  setText(html);
}

namespace {
// The lesson's engines one after the other on the points loaded, with its view and `pick`; false,
// with the reason in the panel, when one of them fails.
bool run_lesson(Workbench& window, LessonPanel& panel, const Lesson& lesson, QStringList measured,
                std::optional<std::uint32_t> pick, bool offer_sample) {
  window.setViewMode(lesson.view);
  for (const std::string& engine : lesson.engines) {
    const auto previous = window.currentRun();
    if (window.parameters()->setEngine(QString::fromStdString(engine))) {
      window.runJoin();
      window.waitForTask();
    }
    if (window.currentRun() == previous) {
      panel.present(lesson, measured << QObject::tr("%1 did not run.").arg(QString::fromStdString(engine)),
                    offer_sample);
      return false;
    }
    measured << measured_line(window.currentRun()->result.stats);
  }
  const double eps = window.parameters()->eps();
  if (!lesson.recall_ks.empty() && window.points()->size() <= kMostRecallPoints)
    measured << recall_line(*window.points(), eps, lesson.recall_ks);
  else if (!lesson.recall_ks.empty())
    measured << QObject::tr("Recall is measured on files of up to %1 points.").arg(count(kMostRecallPoints));
  if (pick) window.view()->pick(*pick);
  panel.present(lesson, measured, offer_sample);
  return true;
}

// The lesson on the user's points: the eps the panel holds (the data's suggestion, unless set), the
// lesson's k, and a point in a dense region picked.
bool lesson_on_loaded(Workbench& window, LessonPanel& panel, const Lesson& lesson) {
  const PointSet& points = *window.points();
  if (const std::string refusal = lesson_refusal(lesson, points); !refusal.empty()) {
    panel.present(lesson, {QObject::tr("This lesson cannot run here: %1.").arg(QString::fromStdString(refusal))}, true);
    return false;
  }
  const double eps = window.parameters()->eps();
  window.parameters()->setK(lesson.k);
  window.parameters()->setSource(Setting::K, QObject::tr("the lesson %1").arg(QString::fromStdString(lesson.name)));
  const std::uint32_t pick = probe_density(points, eps).densest;
  const QString intro = QObject::tr("On %1 (%2 points, %3-D): eps = %4, k = %5; point %6 is picked in a dense region.")
                            .arg(QString::fromStdString(points.source), count(points.size()))
                            .arg(points.dims())
                            .arg(eps, 0, 'g', 4)
                            .arg(lesson.k ? QString::number(lesson.k) : QObject::tr("auto"))
                            .arg(pick);
  return run_lesson(window, panel, lesson, {intro}, pick, true);
}
}  // namespace

bool open_lesson_sample(Workbench& window, const Lesson& lesson) {
  LessonPanel* panel = lesson_panel(window);
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
  const QString source = QObject::tr("the lesson %1").arg(QString::fromStdString(lesson.name));
  window.parameters()->setSource(Setting::Eps, source);
  window.parameters()->setSource(Setting::K, source);
  return run_lesson(window, *panel, lesson, {}, lesson.pick, false);
}

bool open_lesson(Workbench& window, const Lesson& lesson) {
  const auto points = window.points();
  if (!points || from_sample(*points)) return open_lesson_sample(window, lesson);
  return lesson_on_loaded(window, *lesson_panel(window), lesson);
}

}  // namespace simjoin::ui
