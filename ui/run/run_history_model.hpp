#pragma once
// The table of finished runs: engine, parameters, device, pairs, per-phase times, replicated points
// and compared-pairs ratio. Each entry keeps its whole RunRecord (structures and, when small, the
// pairs) for the views, verification and exports.
#include <QAbstractTableModel>

#include <string>
#include <vector>

#include "ui/run/run_columns.hpp"
#include "ui/run/run_controller.hpp"

namespace simjoin::ui {

class RunHistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // The run the views show, in every cell of its row: Shown::Current, or Shown::Stale once its
  // parameters no longer match (the Runs panel draws it bold, italic when stale). The model stays Qt
  // Core only, so that the run path runs where no GUI libraries are.
  enum class Shown { No, Current, Stale };
  static constexpr int ShownRole = Qt::UserRole + 1;

  explicit RunHistoryModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // Appends a run; connect RunController::runFinished here.
  void addRun(RunRecordPtr record);
  void removeRun(int row);
  void clear();
  const RunRecordPtr& run(int row) const { return runs_.at(std::size_t(row)); }
  const std::vector<RunRecordPtr>& runs() const { return runs_; }
  // Column number of a field title, -1 when absent (e.g. a phase no run has).
  int columnOf(const QString& title) const;
  // Marks the run the views show (bold; italic with `stale` saying why once it is stale); null: none.
  void setShown(const RunRecord* run, const QString& stale);

 private:
  void rebuildColumns();

  std::vector<RunRecordPtr> runs_;
  std::vector<RunColumn> columns_;
  const RunRecord* shown_ = nullptr;
  QString stale_;
};

// Several runs side by side: one row per field, one column per run.
class RunCompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit RunCompareModel(QObject* parent = nullptr);
  void setRuns(std::vector<RunRecordPtr> runs);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<RunRecordPtr> runs_;
  std::vector<RunColumn> fields_;
};

}  // namespace simjoin::ui
