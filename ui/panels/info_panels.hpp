#pragma once
// The read-only docks: Data (file, size, the eps the data suggests, each column's name and range, each
// principal component's variance and loadings) and Results (pairs, timings, per-partition replication
// table, and whether the run shown is stale).
#include <QWidget>

#include "core/join/run_stats.hpp"
#include "core/points/eps_estimate.hpp"
#include "core/points/pca.hpp"
#include "core/points/point_set.hpp"

class QLabel;
class QTableWidget;

namespace simjoin::ui {

class StaleMarker;

// Each column's range and mean: computed with the points on the loading thread (a scan of 5 M points
// took the GUI thread about 40 ms), shown by DataPanel.
struct ColumnSummary {
  Bounds64 bounds;
  std::vector<double> means;
};
ColumnSummary summarise_columns(const PointSet& points);

class DataPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DataPanel(QWidget* parent = nullptr);
  void display(const PointSet& points, const Pca* pca, const EpsEstimate& estimate, const ColumnSummary& columns);
  // Rows: the file's columns; columns: name, min, max, mean.
  QTableWidget* columnTable() const { return columns_; }
  // Rows: principal components; columns: component, explained variance, loadings.
  QTableWidget* componentTable() const { return components_; }

 private:
  QLabel* text_;
  QTableWidget* columns_;
  QTableWidget* components_;
};

class ResultsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsPanel(QWidget* parent = nullptr);
  void display(const RunResult& result);
  void clear();
  // Rows: partitions; columns: own, received, sent.
  QTableWidget* partitionTable() const { return table_; }
  // Says why the run shown no longer matches the parameters (empty: it does).
  StaleMarker* staleMarker() const { return stale_; }

 private:
  StaleMarker* stale_;
  QLabel* text_;
  QTableWidget* table_;
};

}  // namespace simjoin::ui
