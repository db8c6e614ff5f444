#pragma once
// Parameter sweeps: every engine at every eps (and every k), count-only, each point timed by the
// rule of `simjoin bench` (warm-up, then repeats; core/report/repeat_timing.hpp). An engine that ignores k
// (its first run has no partitions) runs at the first k only. The same class drives the GUI's live
// charts (start(), a signal per finished point) and the headless CLI (run(), on the calling thread).
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/join/engine.hpp"
#include "core/report/repeat_timing.hpp"

namespace simjoin::ui {

struct SweepSpec {
  std::vector<std::string> engines;
  std::vector<double> eps_values;
  std::vector<int> k_values;  // empty: base.k only
  std::shared_ptr<const PointSet> a;
  std::shared_ptr<const PointSet> b;  // null for a self-join
  JoinParams base;                    // everything but eps and k
  RepeatRule timing;                  // runs per point
  std::string machine;                // where it runs, for the chart's subtitle
  bool machine_details = false;       // the subtitle says why no GPU could be used (machine_subtitle)

  // Engines x eps values x k values: the runs, before any engine turns out to ignore k.
  std::size_t size() const;
  // Eps and k values sorted ascending without repeats; throws Error(Usage) for an empty sweep.
  SweepSpec normalized() const;
};

struct SweepPoint {
  std::string engine;
  double eps = 0;
  int k = 0;
  bool uses_k = true;  // false: the engine ignores k (it returned no partitions)
  RunStats stats;      // of the last timed run
  TimeSpread seconds;  // over the timed runs
  int timed_runs = 0;
  // Points per partition (own members plus copies) for engines that partition; else empty.
  std::vector<std::uint64_t> partition_sizes;
};

class SweepRunner : public QObject {
  Q_OBJECT

 public:
  // The registry must outlive the runner.
  explicit SweepRunner(const EngineRegistry& registry, QObject* parent = nullptr);
  ~SweepRunner() override;  // cancels and waits

  // Called after each point with the number of points the sweep will have, known better once the
  // engines that ignore k are known.
  using OnPoint = std::function<void(const SweepPoint& point, std::size_t total)>;

  // Runs the whole sweep on the calling thread, eps outermost, then k, then engine, calling
  // on_point after each point. `control` serves for cancellation (its progress fraction
  // reaches 1 with the first run, so report progress from on_point). Throws Error (e.g. an engine unavailable, or
  // Cancelled).
  std::vector<SweepPoint> run(const SweepSpec& spec, RunControl& control, const OnPoint& on_point = {}) const;

  // Runs in the background; pointReady per run, then finished, failed or cancelled.
  void start(const SweepSpec& spec);
  void cancel();
  bool running() const { return running_; }

 signals:
  void pointReady(const simjoin::ui::SweepPoint& point, int index, int total);
  void finished(int points);
  void failed(const QString& message);
  void cancelled();

 private:
  const EngineRegistry& registry_;
  QThreadPool pool_;
  std::shared_ptr<RunControl> control_;
  quint64 generation_ = 0;  // signals of a sweep that start() superseded are dropped
  bool running_ = false;
};

}  // namespace simjoin::ui

Q_DECLARE_METATYPE(simjoin::ui::SweepPoint)
