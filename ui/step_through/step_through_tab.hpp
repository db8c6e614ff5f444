#pragma once
// The Step through tab: KMEANS-JOIN, GPU-SJ or GPU-INLJ replayed on the window's points (a sample when they
// are many) and parameters, one step at a time or playing at a chosen speed, with live counters and,
// after the last step, the real engine's statistics on the same points beside them.
#include <memory>

#include <QWidget>

#include "core/join/engine.hpp"
#include "ui/step_through/join_steps.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
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
  // Advances `steps` steps (replaying the window's points first when they or the parameters changed).
  void advance(int steps);
  void restart();
  void setPlaying(bool playing);
  // Which algorithm: "KMEANS-JOIN", "GPU-SJ" or "GPU-INLJ".
  void setAlgorithm(const QString& name);
  // The algorithm an engine runs: GPU-SJ for the grid engines, GPU-INLJ for the nested loops,
  // KMEANS-JOIN for the others.
  void followEngine(const QString& engine);

  const StepThrough* run() const { return run_.get(); }
  std::size_t step() const { return step_; }
  QLabel* counters() const { return counters_; }
  QLabel* check() const { return check_; }
  QLabel* info() const { return info_; }
  StepCanvas* canvas() const { return canvas_; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void inputsChanged();
  void replay();
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
};

}  // namespace simjoin::ui
