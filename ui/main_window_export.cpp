// File -> Export: the selected run's pairs, neighbour lists, statistics and labelled points, and the
// current view (PNG, SVG or PDF, at a chosen size and dpi), each written on a worker thread with progress
// (BackgroundTask).
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

#include "ui/charts/chart_export_button.hpp"
#include "ui/export/image_export.hpp"
#include "ui/export/image_size_dialog.hpp"
#include "ui/export/run_export.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/runs_panel.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/view_figure.hpp"
#include "ui/workbench/background_task.hpp"

#include "core/base/error.hpp"

namespace simjoin::ui {

void MainWindow::buildExportMenu(QMenu* file) {
  QMenu* menu = file->addMenu(tr("&Export"));
  struct Item {
    const char* text;
    RunExport kind;
    const char* suggested;
    const char* filter;
  };
  const Item items[] = {
      {"&Pairs (CSV, NPY, BIN)...", RunExport::Pairs, "pairs.csv",
       "Pair lists (*.csv *.npy *.bin);;CSV (*.csv);;NumPy (*.npy);;Binary (*.bin)"},
      {"&Neighbour lists (CSR)...", RunExport::NeighborsCsr, "neighbors",
       "CSR prefix: PREFIX.offsets.npy and PREFIX.ids.npy (*)"},
      {"Run &statistics (JSON)...", RunExport::StatsJson, "stats.json", "JSON (*.json)"},
      {"&Labelled points (VTP)...", RunExport::LabeledVtp, "points.vtp", "VTK XML polydata (*.vtp)"},
  };
  for (const Item& item : items) {
    QAction* action = menu->addAction(tr(item.text), this, [this, item] {
      if (!selectedRun()) return showError(tr("Export"), tr("Run a join first: exports write the selected run."));
      save_with_dialog(this, tr("Export"), item.suggested, tr(item.filter),
                       [this, item](const std::string& path) { exportRun(item.kind, QString::fromStdString(path)); });
    });
    action->setToolTip(tr("Writes the run selected in the Runs dock (else the run shown)"));
  }
  menu->addSeparator();
  menu->addAction(tr("Current &view (PNG, SVG, PDF)..."), this, [this] {
    const std::optional<ImageSize> size = ask_image_size(this, "viewExport", ImageSize{});
    if (!size) return;
    save_with_dialog(this, tr("Export view"), "view.png", tr("Images (*.png *.svg *.pdf)"),
                     [this, size](const std::string& path) { exportView(QString::fromStdString(path), size); });
  });
}

RunRecordPtr MainWindow::selectedRun() const {
  const auto selected = runs_panel_->selectedRuns();
  return selected.empty() ? current_ : selected.front();
}

void MainWindow::exportRun(RunExport kind, const QString& path) {
  const RunRecordPtr run = selectedRun();
  if (!run) return showError(tr("Export"), tr("Run a join first: exports write the selected run."));
  const EngineRegistry& registry = registry_;
  const std::string file = path.toStdString();
  BackgroundTask::Job job;
  switch (kind) {
    case RunExport::Pairs:
      job = [&registry, run, file](RunControl& control) { export_pairs(registry, *run, file, control); };
      break;
    case RunExport::NeighborsCsr: {
      // The prefix is the chosen name without an extension the user may have typed.
      const QFileInfo info(path);
      const std::string prefix =
          info.suffix().isEmpty() ? file : (info.path() + "/" + info.completeBaseName()).toStdString();
      job = [&registry, run, prefix](RunControl& control) { export_neighbors_csr(registry, *run, prefix, control); };
      break;
    }
    case RunExport::StatsJson:
      job = [run, file](RunControl&) { export_stats_json(*run, file); };
      break;
    case RunExport::LabeledVtp:
      job = [&registry, run, file](RunControl& control) { export_labeled_vtp(registry, *run, file, control); };
      break;
  }
  runInBackground(tr("Exporting run #%1 to %2").arg(run->id).arg(QFileInfo(path).fileName()), std::move(job));
}

void MainWindow::exportView(const QString& path, std::optional<ImageSize> size) {
  // The worker draws every point (the window may show a subset) from its own copy of the view's state.
  runInBackground(tr("Exporting the view to %1").arg(QFileInfo(path).fileName()),
                  [write = view_->figureWriter(), file = path.toStdString(),
                   figure_size = size.value_or(ImageSize{})](RunControl&) { write(file, figure_size); });
}

void MainWindow::runInBackground(const QString& title, std::function<void(RunControl&)> job) {
  if (task_) return showError(title, tr("Wait for the current task to finish."));
  task_ = new BackgroundTask(title, std::move(job), this);
  connect(task_, &BackgroundTask::finished, this, [this, title](bool ok, bool cancelled, const QString& error) {
    task_->deleteLater();
    task_ = nullptr;
    if (ok)
      statusBar()->showMessage(tr("%1: done").arg(title), 8000);
    else if (cancelled)
      statusBar()->showMessage(tr("%1: cancelled").arg(title), 5000);
    else
      showError(title, error);
    emit exportFinished(ok);
  });
}

}  // namespace simjoin::ui
