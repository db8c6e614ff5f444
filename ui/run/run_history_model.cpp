#include "ui/run/run_history_model.hpp"

namespace simjoin::ui {

namespace {
std::vector<RunColumn> columns_for(const std::vector<RunRecordPtr>& runs) {
  std::vector<const RunRecord*> records;
  for (const RunRecordPtr& run : runs) records.push_back(run.get());
  return run_columns(phase_names(records));
}

// DisplayRole gets formatted text; EditRole and UserRole the exact value (for sorting and tests).
QVariant field_data(const RunColumn& field, const RunRecord& run, int role) {
  if (role == Qt::DisplayRole) return display_text(field.value(run));
  if (role == Qt::EditRole || role == Qt::UserRole) return field.value(run);
  if (role == Qt::TextAlignmentRole && field.title != "Engine" && field.title != "Device")
    return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}
}  // namespace

RunHistoryModel::RunHistoryModel(QObject* parent) : QAbstractTableModel(parent) { rebuildColumns(); }

int RunHistoryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }

int RunHistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(columns_.size());
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const RunRecord& run = *runs_[std::size_t(index.row())];
  if (role == ShownRole) return int(&run != shown_ ? Shown::No : stale_.isEmpty() ? Shown::Current : Shown::Stale);
  if (&run == shown_ && role == Qt::ToolTipRole) return stale_.isEmpty() ? tr("Shown in the views") : stale_;
  return field_data(columns_[std::size_t(index.column())], run, role);
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Vertical) return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
  if (section >= columnCount()) return {};
  if (role == Qt::DisplayRole) return columns_[std::size_t(section)].title;
  if (role == Qt::ToolTipRole) return columns_[std::size_t(section)].tip;
  return {};
}

void RunHistoryModel::setShown(const RunRecord* run, const QString& stale) {
  shown_ = run;
  stale_ = stale;
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void RunHistoryModel::addRun(RunRecordPtr record) {
  const std::size_t columns_before = columns_.size();
  const int row = rowCount();
  beginInsertRows({}, row, row);
  runs_.push_back(std::move(record));
  endInsertRows();
  // A run with a phase not seen before adds a column.
  if (columns_for(runs_).size() != columns_before) rebuildColumns();
}

void RunHistoryModel::removeRun(int row) {
  if (row < 0 || row >= rowCount()) return;
  beginRemoveRows({}, row, row);
  runs_.erase(runs_.begin() + row);
  endRemoveRows();
  rebuildColumns();
}

void RunHistoryModel::clear() {
  beginResetModel();
  runs_.clear();
  columns_ = columns_for(runs_);
  endResetModel();
}

int RunHistoryModel::columnOf(const QString& title) const {
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (columns_[c].title == title) return int(c);
  return -1;
}

void RunHistoryModel::rebuildColumns() {
  beginResetModel();
  columns_ = columns_for(runs_);
  endResetModel();
}

RunCompareModel::RunCompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunCompareModel::setRuns(std::vector<RunRecordPtr> runs) {
  beginResetModel();
  runs_ = std::move(runs);
  fields_ = columns_for(runs_);
  endResetModel();
}

int RunCompareModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(fields_.size()); }

int RunCompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }

QVariant RunCompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  return field_data(fields_[std::size_t(index.row())], *runs_[std::size_t(index.column())], role);
}

QVariant RunCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Vertical && section < rowCount() && role == Qt::ToolTipRole)
    return fields_[std::size_t(section)].tip;
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section < rowCount() ? fields_[std::size_t(section)].title : QVariant();
  if (section >= columnCount()) return {};
  const RunRecord& run = *runs_[std::size_t(section)];
  return QString("#%1 %2").arg(run.id).arg(QString::fromStdString(run.result.stats.engine));
}

}  // namespace simjoin::ui
