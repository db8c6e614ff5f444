#pragma once
// The Step through tab: KMEANS-JOIN, GPU-SJ or GPU-INLJ replayed on the window's points (a sample when they
// are many) and parameters, one step at a time or playing at a chosen speed, with live counters and,
// after the last step, the real engine's statistics on the same points beside them.
#include <cstdint>
#include <memory>

#include <QString>

#include <QWidget>

#include "core/join/engine.hpp"
#include "ui/step_through/join_steps.hpp"

class QComboBox;
template <typename T>
class QFutureWatcher;
class QLabel;
class QPushButton;
class QSlider;
class QThreadPool;
class QTimer;

namespace simjoin::ui {

class StepCanvas;
class Workbench;

class StepThroughTab : public QWidget {
  Q_OBJECT

 public:
  // Partitions stepped through while Parameters' k is automatic: auto would pick one for so few points.
  static constexpr int kStepK = 8;

  StepThroughTab(const EngineRegistry& registry, Workbench* window);
  // Waits for replays still running on the tab's worker (they use the registry and the points).
  ~StepThroughTab() override;
  // Advances `steps` steps (replaying the window's points first when they or the parameters changed).
  void advance(int steps);
  void restart();
  void setPlaying(bool playing);
  // Which algorithm: "KMEANS-JOIN", "GPU-SJ" or "GPU-INLJ".
  void setAlgorithm(const QString& name);
  // The algorithm an engine runs: GPU-SJ for the grid engines, GPU-INLJ for the nested loops,
  // KMEANS-JOIN for the others.
  void followEngine(const QString& engine);

  // These wait for a replay under way on the worker first (see settle()).
  const StepThrough* run() {
    settle();
    return run_.get();
  }
  std::size_t step() const { return step_; }
  QLabel* counters() {
    settle();
    return counters_;
  }
  QLabel* check() {
    settle();
    return check_;
  }
  QLabel* info() {
    settle();
    return info_;
  }
  StepCanvas* canvas() {
    settle();
    return canvas_;
  }
  // Waits for the replay under way on the worker, if any, and shows it: for scripts and tests; the
  // window itself never needs to.
  void settle();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  // What a replay is made of, and what it gives.
  struct Inputs {
    std::shared_ptr<const PointSet> points;
    double eps = 0;
    int k = 0;
    QString algorithm;
  };
  struct Replayed {
    std::shared_ptr<const StepThrough> run;
    RunStats stats;  // the real engine on the same points
    QString error;
  };
  Inputs inputs() const;
  static Replayed compute(const EngineRegistry& registry, const Inputs& in);
  void inputsChanged();
  void clear();
  // At once (stepping, restarting), or on a worker (the tab shown, its inputs changed while shown).
  void replay();
  void replayInBackground();
  void present(const Replayed& done);
  void showStep();

  const EngineRegistry& registry_;
  Workbench* window_;
  QComboBox* algorithm_;
  QPushButton* play_;
  QSlider* speed_;
  QTimer* timer_;
  QLabel* info_;
  StepCanvas* canvas_;
  QLabel* text_;
  QLabel* counters_;
  QLabel* check_;
  std::shared_ptr<const StepThrough> run_;
  RunStats engine_stats_;  // the real engine on the same points
  std::size_t step_ = 0;
  bool stale_ = true;
  std::uint64_t generation_ = 0;                 // of the latest replay asked for; older results are dropped
  QFutureWatcher<Replayed>* pending_ = nullptr;  // the latest replay on the worker, until shown
  QThreadPool* worker_;                          // the tab's own: one replay at a time
};

}  // namespace simjoin::ui
