#pragma once
// Per-phase timing as stacked bars: one bar per run (one run alone, or several engines side by
// side), one segment per phase, plus "other" for time outside the named phases. Hovering a segment
// shows its exact time; clicking a legend entry hides that phase.
#include <QChart>
#include <QSet>
#include <QString>

#include <vector>

#include "core/join/run_stats.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

struct PhaseBar {
  QString label;
  RunStats stats;
};

// A run's bar, labelled "#id engine".
PhaseBar phase_bar(const RunRecord& run);

class PhaseChart : public QChart {
  Q_OBJECT

 public:
  explicit PhaseChart(QGraphicsItem* parent = nullptr);
  void setRuns(std::vector<PhaseBar> bars);
  const std::vector<PhaseBar>& bars() const { return bars_; }
  // Phase names in stacking order, "other" last when present.
  const std::vector<QString>& phases() const { return phases_; }
  // Seconds of `phase` in bar `bar`.
  double seconds(std::size_t bar, const QString& phase) const;
  void setPhaseHidden(const QString& phase, bool hidden);

 private:
  void rebuild();

  std::vector<PhaseBar> bars_;
  std::vector<QString> phases_;
  QSet<QString> hidden_;
};

}  // namespace simjoin::ui
