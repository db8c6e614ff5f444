// File > Save Session / Open Session, the picked point's neighbours as CSV, and Help > About.
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QTabBar>

#include "core/base/error.hpp"
#include "ui/charts/chart_export_button.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/about_text.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/pick_neighbours.hpp"
#include "ui/views/projection_view.hpp"

namespace simjoin::ui {

void MainWindow::buildSessionMenu(QMenu* file) {
  file->addAction(tr("Export the picked point's &neighbours (CSV)..."), this, [this] {
    if (!points_ || !view_->picked()) return showError(tr("Export"), tr("Pick a point first (click it in the view)."));
    save_with_dialog(this, tr("Export neighbours"), "neighbours.csv", tr("CSV (*.csv)"),
                     [this](const std::string& path) { exportPickNeighbours(QString::fromStdString(path)); });
  });
  file->addSeparator();
  file->addAction(tr("Save Sess&ion..."), this, [this] {
    if (!points_) return showError(tr("Save session"), tr("Load points first: a session reopens its data."));
    save_with_dialog(this, tr("Save session"), "session.json", tr("Sessions (*.json)"),
                     [this](const std::string& path) { write_session(session(), path); });
  });
  file->addAction(tr("Open Sessio&n..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {}, tr("Sessions (*.json)"));
    if (!path.isEmpty()) openSession(path);
  });
}

void MainWindow::exportPickNeighbours(const QString& path) {
  const auto picked = view_->picked();
  if (!points_ || !picked) return showError(tr("Export"), tr("Pick a point first (click it in the view)."));
  runInBackground(tr("Exporting the neighbours of point %1 to %2").arg(*picked).arg(QFileInfo(path).fileName()),
                  [points = points_, id = *picked, eps = parameters_->eps(), file = path.toStdString()](RunControl&) {
                    write_pick_neighbours(*points, id, eps, file);
                  });
}

Session MainWindow::session() const {
  Session session;
  session.data = data_path_;
  session.eps = parameters_->eps();
  session.k = parameters_->k();
  session.engine = parameters_->engine();
  session.view = static_cast<ViewMode>(modes_->currentIndex());
  session.pick = view_->picked();
  session.palette = colorblind_->isChecked() ? PaletteKind::ColorBlind : PaletteKind::Distinct;
  return session;
}

bool MainWindow::openSession(const QString& path) {
  Session session;
  try {
    session = read_session(path.toStdString());
  } catch (const Error& error) {
    showError(tr("Open session"), QString::fromStdString(error.what()));
    emit loadFailed(error.kind(), QString::fromStdString(error.what()));
    return false;
  }
  const auto before = points_;
  if (session.data.startsWith("sample:"))
    openSample(session.data.mid(7));
  else
    openFile(session.data);
  waitForTask();
  if (!points_ || points_ == before) return false;  // the load's error is shown
  applySession(session, tr("the session %1").arg(QFileInfo(path).fileName()));
  return true;
}

void MainWindow::applySession(const Session& session, const QString& source) {
  parameters_->setEps(session.eps);
  parameters_->setK(session.k);
  parameters_->setSource(Setting::Eps, source);
  parameters_->setSource(Setting::K, source);
  if (parameters_->setEngine(session.engine))
    parameters_->setSource(Setting::Engine, source);
  else
    showError(tr("Open session"),
              tr("The engine %1 cannot run here; %2 is used.").arg(session.engine, parameters_->engine()));
  setPalette(session.palette, source);
  setViewMode(session.view);
  if (session.pick && !view_->pick(*session.pick))
    showError(tr("Open session"), tr("Point %1 is not a row of the data.").arg(*session.pick));
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Simjoin Studio"), about_text(QApplication::applicationVersion()));
}

}  // namespace simjoin::ui
