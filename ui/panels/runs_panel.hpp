#pragma once
// The Runs dock: every finished run in a table, with Compare (side by side, phase bars), Load into
// views (show a past run's structures again), Verify... (against cpu-bruteforce or a chosen engine,
// on a worker thread) and Remove.
#include <QWidget>

#include <vector>

#include "core/join/engine.hpp"
#include "ui/run/run_controller.hpp"

class QPushButton;
class QTableView;

namespace simjoin::ui {

class BackgroundTask;
class RunHistoryModel;

class RunsPanel : public QWidget {
  Q_OBJECT

 public:
  RunsPanel(const EngineRegistry& registry, RunHistoryModel* history, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  // Selected runs in table order.
  std::vector<RunRecordPtr> selectedRuns() const;
  void selectRows(const std::vector<int>& rows);

  // Opens the comparison of the selected runs (non-modal); returns it, null with fewer than one.
  QDialog* compare();
  // Verifies the first selected run against `reference` in the background; verified() follows.
  void verify(const QString& reference);
  // Blocks, processing events, until a verification in progress has finished.
  void waitForVerify();

 signals:
  void loadRequested(simjoin::ui::RunRecordPtr run);
  // ok: no missing or extra pairs; `summary` names the reference and the counts.
  void verified(bool ok, const QString& summary);

 private:
  void askVerify();
  void updateButtons();

  const EngineRegistry& registry_;
  RunHistoryModel* history_;
  QTableView* table_;
  QPushButton* compare_;
  QPushButton* load_;
  QPushButton* verify_;
  QPushButton* remove_;
  BackgroundTask* verify_task_ = nullptr;
};

}  // namespace simjoin::ui
