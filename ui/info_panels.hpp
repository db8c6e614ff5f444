#pragma once
// The read-only docks: Data (file, size, ranges, PCA explained variance, the eps the data suggests)
// and Results (pairs, timings, per-partition replication table).
#include <QWidget>

#include "core/eps_estimate.hpp"
#include "core/pca.hpp"
#include "core/point_set.hpp"
#include "core/run_stats.hpp"

class QLabel;
class QTableWidget;

namespace simjoin::ui {

class DataPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DataPanel(QWidget* parent = nullptr);
  void display(const PointSet& points, const Pca* pca, const EpsEstimate& estimate);

 private:
  QLabel* text_;
};

class ResultsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsPanel(QWidget* parent = nullptr);
  void display(const RunResult& result);
  void clear();
  // Rows: partitions; columns: own, received, sent.
  QTableWidget* partitionTable() const { return table_; }

 private:
  QLabel* text_;
  QTableWidget* table_;
};

}  // namespace simjoin::ui
