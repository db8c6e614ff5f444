#include "ui/panels/runs_panel.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/panels/run_compare_dialog.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/run/run_verify.hpp"
#include "ui/workbench/background_task.hpp"

namespace simjoin::ui {

namespace {
constexpr std::size_t kListedPairs = 200;

QString list_pairs(const char* title, const std::vector<Pair>& pairs) {
  QString text = QString("%1 (%2):\n").arg(title).arg(pairs.size());
  for (std::size_t p = 0; p < std::min(pairs.size(), kListedPairs); ++p)
    text += QString("  (%1, %2)\n").arg(pairs[p].i).arg(pairs[p].j);
  if (pairs.size() > kListedPairs) text += QString("  ... %1 more\n").arg(pairs.size() - kListedPairs);
  return text;
}
// Draws the run the views show in bold, italic once it is stale (RunHistoryModel::ShownRole).
class ShownRunDelegate final : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
    QStyledItemDelegate::initStyleOption(option, index);
    const auto shown = RunHistoryModel::Shown(index.data(RunHistoryModel::ShownRole).toInt());
    option->font.setBold(shown != RunHistoryModel::Shown::No);
    option->font.setItalic(shown == RunHistoryModel::Shown::Stale);
  }
};
}  // namespace

RunsPanel::RunsPanel(const EngineRegistry& registry, RunHistoryModel* history, QWidget* parent)
    : QWidget(parent),
      registry_(registry),
      history_(history),
      table_(new QTableView),
      compare_(new QPushButton(tr("Compare"))),
      load_(new QPushButton(tr("Load into views"))),
      verify_(new QPushButton(tr("Verify..."))),
      remove_(new QPushButton(tr("Remove"))) {
  table_->setModel(history_);
  table_->setItemDelegate(new ShownRunDelegate(table_));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->hide();
  compare_->setToolTip(tr("Selected runs side by side, with their time per phase"));
  load_->setToolTip(tr("Show this run's partitions, replication and grid in the views"));
  verify_->setToolTip(tr("Check this run's pairs against another engine (cpu-bruteforce by default)"));

  auto* buttons = new QHBoxLayout;
  for (QPushButton* button : {compare_, load_, verify_, remove_}) buttons->addWidget(button);
  buttons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);

  connect(compare_, &QPushButton::clicked, this, &RunsPanel::compare);
  connect(load_, &QPushButton::clicked, this, [this] {
    const auto runs = selectedRuns();
    if (!runs.empty()) emit loadRequested(runs.front());
  });
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { emit loadRequested(history_->run(index.row())); });
  connect(verify_, &QPushButton::clicked, this, &RunsPanel::askVerify);
  connect(remove_, &QPushButton::clicked, this, [this] {
    std::vector<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) rows.push_back(index.row());
    std::sort(rows.rbegin(), rows.rend());
    for (int row : rows) history_->removeRun(row);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPanel::updateButtons);
  connect(history_, &QAbstractItemModel::modelReset, this, &RunsPanel::updateButtons);
  connect(history_, &QAbstractItemModel::rowsRemoved, this, &RunsPanel::updateButtons);
  updateButtons();
}

std::vector<RunRecordPtr> RunsPanel::selectedRuns() const {
  std::vector<int> rows;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) rows.push_back(index.row());
  std::sort(rows.begin(), rows.end());
  std::vector<RunRecordPtr> runs;
  for (int row : rows) runs.push_back(history_->run(row));
  return runs;
}

void RunsPanel::selectRows(const std::vector<int>& rows) {
  table_->clearSelection();
  for (int row : rows)
    table_->selectionModel()->select(history_->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

void RunsPanel::updateButtons() {
  const std::size_t selected = table_->selectionModel()->selectedRows().size();
  compare_->setEnabled(selected >= 1);
  load_->setEnabled(selected == 1);
  verify_->setEnabled(selected == 1 && !verify_task_);
  remove_->setEnabled(selected >= 1);
}

QDialog* RunsPanel::compare() {
  auto runs = selectedRuns();
  if (runs.empty()) return nullptr;
  auto* dialog = new RunCompareDialog(std::move(runs), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

void RunsPanel::askVerify() {
  QStringList engines;
  for (const auto& engine : registry_.engines())
    if (engine->availability().available && engine->capabilities().exact)
      engines << QString::fromStdString(engine->name());
  const int preferred = std::max<int>(0, engines.indexOf("cpu-bruteforce"));
  bool ok = false;
  const QString reference =
      QInputDialog::getItem(this, tr("Verify run"), tr("Compare the pairs with"), engines, preferred, false, &ok);
  if (ok) verify(reference);
}

void RunsPanel::verify(const QString& reference) {
  const auto runs = selectedRuns();
  if (runs.empty() || verify_task_) return;
  const RunRecordPtr run = runs.front();
  auto outcome = std::make_shared<VerifyOutcome>();
  VerifyOptions options;
  options.reference = reference.toStdString();
  const EngineRegistry& registry = registry_;
  verify_task_ = new BackgroundTask(
      tr("Verifying run #%1 against %2").arg(run->id).arg(reference),
      [&registry, run, options, outcome](RunControl& control) {
        *outcome = verify_run(registry, *run, options, control);
      },
      this);
  updateButtons();
  connect(verify_task_, &BackgroundTask::finished, this,
          [this, outcome](bool ok, bool cancelled, const QString& error) {
            verify_task_->deleteLater();
            verify_task_ = nullptr;
            updateButtons();
            if (cancelled) return;
            const bool matches = ok && outcome->report.ok();
            const QString summary = ok ? QString::fromStdString(outcome->summary()) : error;
            emit verified(matches, summary);
            if (qApp->property("unattended").toBool()) return;
            auto* box = new QMessageBox(matches ? QMessageBox::Information : QMessageBox::Warning, tr("Verify run"),
                                        summary, QMessageBox::Close, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            if (ok && !outcome->report.ok())
              box->setDetailedText(list_pairs("Missing pairs", outcome->report.missing) +
                                   list_pairs("Extra pairs", outcome->report.extra));
            box->open();
          });
}

void RunsPanel::waitForVerify() {
  if (verify_task_) verify_task_->wait();
}

}  // namespace simjoin::ui
