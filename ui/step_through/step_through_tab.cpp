#include "ui/step_through/step_through_tab.hpp"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/base/error.hpp"
#include "core/run/run_engine.hpp"
#include "ui/format/count_text.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/step_through/step_canvas.hpp"
#include "ui/workbench/workbench.hpp"

namespace simjoin::ui {

namespace {
QString count(std::uint64_t value) { return QString::fromStdString(count_text(value)); }

QString counters_text(const StepCounters& c, bool copies) {
  QString text = QObject::tr("distance tests %1 · candidates %2 · pairs so far %3")
                     .arg(count(c.distance_tests), count(c.candidates), count(c.pairs));
  if (copies) text += QObject::tr(" · copies %1").arg(count(c.copies));
  return text;
}
}  // namespace

StepThroughTab::StepThroughTab(const EngineRegistry& registry, Workbench* window)
    : registry_(registry),
      window_(window),
      algorithm_(new QComboBox),
      play_(new QPushButton(tr("Play"))),
      speed_(new QSlider(Qt::Horizontal)),
      timer_(new QTimer(this)),
      info_(new QLabel),
      canvas_(new StepCanvas),
      text_(new QLabel),
      counters_(new QLabel),
      check_(new QLabel),
      worker_(new QThreadPool(this)) {
  worker_->setMaxThreadCount(1);
  algorithm_->addItem(tr("KMEANS-JOIN"), "KMEANS-JOIN");
  algorithm_->addItem(tr("GPU-SJ (unicomp)"), "GPU-SJ");
  algorithm_->addItem(tr("GPU-INLJ (block rotation)"), "GPU-INLJ");
  auto* restart = new QPushButton(tr("Restart"));
  auto* step = new QPushButton(tr("Step"));
  play_->setCheckable(true);
  speed_->setRange(1, 30);
  speed_->setValue(4);
  speed_->setToolTip(tr("Steps per second while playing"));
  for (QLabel* label : {info_, text_, counters_, check_}) {
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  QFont bold = counters_->font();
  bold.setBold(true);
  counters_->setFont(bold);

  auto* controls = new QHBoxLayout;
  controls->addWidget(algorithm_);
  controls->addWidget(restart);
  controls->addWidget(step);
  controls->addWidget(play_);
  controls->addWidget(new QLabel(tr("Speed")));
  controls->addWidget(speed_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(info_);
  layout->addWidget(canvas_, 1);
  layout->addWidget(text_);
  layout->addWidget(counters_);
  layout->addWidget(check_);

  connect(algorithm_, &QComboBox::currentIndexChanged, this, &StepThroughTab::inputsChanged);
  connect(restart, &QPushButton::clicked, this, &StepThroughTab::restart);
  connect(step, &QPushButton::clicked, this, [this] { advance(1); });
  connect(play_, &QPushButton::toggled, this, &StepThroughTab::setPlaying);
  connect(speed_, &QSlider::valueChanged, this, [this](int per_second) { timer_->setInterval(1000 / per_second); });
  timer_->setInterval(1000 / speed_->value());
  connect(timer_, &QTimer::timeout, this, [this] { advance(1); });
  window_->onPointsLoaded(this, [this] { inputsChanged(); });
  connect(window_->parameters(), &ParametersPanel::changed, this, &StepThroughTab::inputsChanged);
  info_->setText(tr("Open a point set to step through its join."));
}

StepThroughTab::~StepThroughTab() { worker_->waitForDone(); }

void StepThroughTab::setAlgorithm(const QString& name) {
  const int index = algorithm_->findData(name);
  if (index >= 0) algorithm_->setCurrentIndex(index);
}

void StepThroughTab::followEngine(const QString& engine) {
  setAlgorithm(engine.contains("grid") ? "GPU-SJ" : engine.contains("nlj") ? "GPU-INLJ" : "KMEANS-JOIN");
}

// Replays at once where the user sees it, else when the tab is next shown or stepped.
void StepThroughTab::inputsChanged() {
  setPlaying(false);
  stale_ = true;
  if (isVisible()) replayInBackground();
}

void StepThroughTab::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) replayInBackground();
}

StepThroughTab::Inputs StepThroughTab::inputs() const {
  return {window_->points(), window_->parameters()->eps(), window_->parameters()->k(),
          algorithm_->currentData().toString()};
}

// The replay and the real engine's run on the same points, on any thread: it holds its own inputs.
StepThroughTab::Replayed StepThroughTab::compute(const EngineRegistry& registry, const Inputs& in) {
  Replayed done;
  if (!in.points || in.points->empty()) return done;
  const int k = in.k > 0 ? in.k : kStepK;
  try {
    const std::size_t sampled = std::min(in.points->size(), kMaxStepPoints);
    done.run = std::make_shared<const StepThrough>(
        in.algorithm == "KMEANS-JOIN"
            ? kmeans_join_steps(*in.points, in.eps, std::min<std::size_t>(std::size_t(k), sampled))
        : in.algorithm == "GPU-SJ" ? grid_join_steps(*in.points, in.eps)
                                   : inlj_steps(*in.points, in.eps));
  } catch (const Error& error) {
    done.error = QString::fromUtf8(error.what());
    return done;
  }
  if (Engine* engine = registry.find(done.run->engine)) {
    JoinParams params;
    params.eps = done.run->eps;
    params.k = int(done.run->k);
    params.threads = 1;  // as the replay: k-means++ seeding then draws the same centroids
    CountSink sink;
    RunControl control;
    done.stats = run_engine(*engine, {&done.run->points, nullptr}, params, sink, control).stats;
  }
  return done;
}

void StepThroughTab::clear() {
  stale_ = false;
  run_.reset();
  step_ = 0;
  canvas_->setRun(nullptr);
  text_->clear();
  counters_->clear();
  check_->clear();
}

void StepThroughTab::replay() {
  ++generation_;  // a replay under way on the worker is now stale
  pending_ = nullptr;
  clear();
  present(compute(registry_, inputs()));
}

// Where the tab is shown or its inputs change while shown: on the views' worker, so that the window
// answers meanwhile (sampling a region of millions of points and replaying take a few hundred ms).
void StepThroughTab::replayInBackground() {
  const std::uint64_t generation = ++generation_;
  clear();
  info_->setText(tr("Preparing the step-through..."));
  auto* watcher = new QFutureWatcher<Replayed>(this);
  pending_ = watcher;
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (pending_ == watcher) pending_ = nullptr;
    if (generation == generation_) present(watcher->result());
  });
  watcher->setFuture(
      QtConcurrent::run(worker_, [&registry = registry_, in = inputs()] { return compute(registry, in); }));
}

void StepThroughTab::settle() {
  if (!pending_) return;
  QFutureWatcher<Replayed>* watcher = pending_;
  pending_ = nullptr;
  watcher->waitForFinished();
  watcher->disconnect(this);
  watcher->deleteLater();
  present(watcher->result());
}

void StepThroughTab::present(const Replayed& done) {
  run_ = done.run;
  engine_stats_ = done.stats;
  if (!done.error.isEmpty()) return info_->setText(tr("Cannot step through: %1").arg(done.error));
  if (!run_) return;
  QStringList info;
  if (run_->sampled())
    info << tr("Stepping through %1 of the %2 points, a region where there is something to watch, so that each "
               "step draws at once.")
                .arg(count(run_->points.size()), count(run_->total_points));
  else
    info << tr("All %1 points.").arg(count(run_->points.size()));
  if (run_->far_left_out) info << tr("%1 far outliers left out.").arg(count(run_->far_left_out));
  info << tr("eps = %1.").arg(run_->eps, 0, 'g', 4);
  if (run_->algorithm == "KMEANS-JOIN")
    info << (window_->parameters()->k() > 0
                 ? tr("k = %1.").arg(run_->k)
                 : tr("k = %1 (k is automatic in Parameters, which picks 1 for so few points).").arg(run_->k));
  for (const std::string& note : run_->notes) info << QString::fromStdString(note) + ".";
  info_->setText(info.join(' '));
  canvas_->setRun(run_);
  showStep();
}

void StepThroughTab::restart() {
  setPlaying(false);
  settle();
  if (stale_) replay();
  step_ = 0;
  showStep();
}

void StepThroughTab::advance(int steps) {
  settle();
  if (stale_) replay();
  if (!run_) return;
  step_ = std::min(step_ + std::size_t(std::max(steps, 0)), run_->steps.size() - 1);
  if (step_ + 1 == run_->steps.size()) setPlaying(false);
  showStep();
}

void StepThroughTab::setPlaying(bool playing) {
  if (playing) settle();
  playing = playing && run_ && step_ + 1 < run_->steps.size();
  if (playing)
    timer_->start();
  else
    timer_->stop();
  play_->blockSignals(true);
  play_->setChecked(playing);
  play_->setText(playing ? tr("Pause") : tr("Play"));
  play_->blockSignals(false);
}

void StepThroughTab::showStep() {
  if (!run_) return;
  const JoinStep& step = run_->steps[step_];
  const bool kmeans = run_->algorithm == "KMEANS-JOIN";
  canvas_->setStep(step_);
  text_->setText(tr("Step %1 of %2: %3").arg(step_ + 1).arg(run_->steps.size()).arg(QString::fromStdString(step.text)));
  counters_->setText(counters_text(step.counters, kmeans));
  check_->clear();
  if (step_ + 1 < run_->steps.size() || engine_stats_.engine.empty()) return;
  const StepCounters& c = step.counters;
  const bool same = c.distance_tests == engine_stats_.compared_pairs && c.pairs == engine_stats_.pairs &&
                    (!kmeans || c.copies == engine_stats_.replicated_points);
  QString engine = tr("%1 on the same %2 points: %3 distance tests, %4 pairs")
                       .arg(QString::fromStdString(engine_stats_.engine), count(engine_stats_.n),
                            count(engine_stats_.compared_pairs), count(engine_stats_.pairs));
  if (kmeans) engine += tr(", %1 copies").arg(count(engine_stats_.replicated_points));
  check_->setText(engine + (same ? tr(": the same counts.") : tr(": the counts differ.")));
}

}  // namespace simjoin::ui
