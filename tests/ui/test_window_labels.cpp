// What the window says about the numbers it shows: the Data panel lists the file's columns and each
// principal component with its loadings, in cells that neither wrap nor run together; the map keeps
// its orientation whatever sign the PCA returns; the axis boxes name the component and its columns
// in full; results that no longer match the parameters say so; the Runs table explains its columns
// and numbers runs without gaps; samples open by name; the legend takes no room when empty.
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include <random>

#include "core/base/error.hpp"
#include "core/points/pca.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "tests/ui/window_support.hpp"
#include "tests/ui/window_test_main.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/info_panels.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/panels/run_compare_dialog.hpp"
#include "ui/panels/run_status.hpp"
#include "ui/panels/runs_panel.hpp"
#include "ui/run/run_history_model.hpp"
#include "ui/samples.hpp"
#include "ui/views/projection_view.hpp"
#include "ui/views/stale_marker.hpp"
#include "ui/views/view_modes.hpp"
#include "ui/views/vtk_view_widget.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::WindowTest;

namespace {
constexpr std::size_t kLat = 0, kLon = 1;

// Places on a map as latitude, longitude (longitude spread wider, so PC1 is mostly longitude).
PointSet places(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> lon(-170, 170), lat(-60, 70);
  PointSet points(1500, 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points.point(i)[kLat] = lat(rng);
    points.point(i)[kLon] = lon(rng);
  }
  points.column_names = {"lat", "lon"};
  return points;
}

// A map whose PC1, as the eigensolver returns it, points west: unoriented it would be mirrored.
PointSet mirrored_places() {
  for (std::uint64_t seed = 1; seed < 200; ++seed) {
    PointSet points = places(seed);
    const Pca raw = fit_pca(points);
    if (raw.components[kLon] < 0) return points;
  }
  qFatal("no seed gives a westward PC1");
}

// The width a combo box gives its text.
int text_room(QComboBox* box) {
  QStyleOptionComboBox option;
  option.initFrom(box);
  option.editable = box->isEditable();
  return box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box).width();
}

// Every cell of `table` is shown whole: its text fits its column.
void verify_cells_fit(QTableWidget* table) {
  for (int r = 0; r < table->rowCount(); ++r)
    for (int c = 0; c < table->columnCount(); ++c) {
      const QString text = table->item(r, c)->text();
      QVERIFY2(!text.contains('\n'), qPrintable(text));
      QVERIFY2(table->fontMetrics().horizontalAdvance(text) < table->columnWidth(c), qPrintable(text));
    }
}
}  // namespace

class TestWindowLabels : public WindowTest {
  Q_OBJECT

  void run() {
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    window_->runJoin();
    window_->waitForTask();
    QCOMPARE(finished.count(), 1);
    QVERIFY(finished.at(0).at(0).toBool());
  }

 private slots:
  void init() {
    QSettings().clear();
    qApp->setProperty("unattended", true);
  }
  void cleanup() { window_.reset(); }

  void dataPanelNamesColumnsAndComponents() {
    newWindow();
    PointSet points = mirrored_places();
    // Earth-centred metres beside the degrees: numbers of very different widths.
    PointSet wide(points.size(), 3);
    for (std::size_t i = 0; i < points.size(); ++i) {
      wide.point(i)[0] = points.point(i)[kLat];
      wide.point(i)[1] = points.point(i)[kLon];
      wide.point(i)[2] = 6.3447e6 + 1e3 * points.point(i)[kLat];
    }
    wide.column_names = {"lat", "lon", "x_ecef"};
    open(wide, "places.csv");
    DataPanel* data = window_->findChild<DataPanel*>();
    QVERIFY(data);
    QTableWidget* columns = data->columnTable();
    QCOMPARE(columns->rowCount(), 3);
    QCOMPARE(columns->item(0, 0)->text(), QString("lat"));
    QCOMPARE(columns->item(2, 0)->text(), QString("x_ecef"));
    for (int c = 1; c < 4; ++c) {
      bool ok = false;
      columns->item(2, c)->text().toDouble(&ok);
      QVERIFY2(ok, qPrintable(columns->item(2, c)->text()));  // one number per cell
    }
    verify_cells_fit(columns);

    // One row per component, on its own row: PC1 is mostly x_ecef (metres dwarf degrees).
    QTableWidget* components = data->componentTable();
    QCOMPARE(components->rowCount(), 3);
    QCOMPARE(components->item(0, 0)->text(), QString("PC1"));
    QVERIFY(components->item(0, 1)->text().endsWith(" %"));
    QVERIFY2(components->item(0, 2)->text().startsWith("x_ecef 1.00"), qPrintable(components->item(0, 2)->text()));
    verify_cells_fit(components);

    // Without names in the file, columns are x0, x1, ...
    open(*clustered_points(300, 2, 1), "unnamed.npy");
    QCOMPARE(columns->item(0, 0)->text(), QString("x0"));
    QCOMPARE(columns->item(1, 0)->text(), QString("x1"));
  }

  void viewModesComeFromOneTable() {
    newWindow();
    open(*clustered_points(300, 2, 2), "points.csv");
    QStringList titles;
    for (const ViewModeInfo& info : view_modes()) titles << QString::fromUtf8(info.title);
    // One tab per row of the table, in its order, and one View menu entry each.
    QTabBar* tabs = nullptr;
    for (QTabBar* bar : window_->findChildren<QTabBar*>()) {
      QStringList texts;
      for (int i = 0; i < bar->count(); ++i) texts << bar->tabText(i);
      if (texts == titles) tabs = bar;
    }
    QVERIFY2(tabs, qPrintable("no tab bar reads " + titles.join(", ")));
    QMenu* view_menu = nullptr;
    for (QAction* action : window_->menuBar()->actions())
      if (action->text().remove('&') == "View") view_menu = action->menu();
    QVERIFY(view_menu);
    for (const ViewModeInfo& info : view_modes()) {
      QAction* entry = nullptr;
      for (QAction* action : view_menu->actions())
        if (action->text() == QString::fromUtf8(info.title)) entry = action;
      QVERIFY2(entry, info.title);
      entry->trigger();
      QCOMPARE(tabs->currentIndex(), static_cast<int>(info.mode));
      QCOMPARE(parse_view_mode(info.option), std::optional<ViewMode>(info.mode));
    }
    QVERIFY(!parse_view_mode("Scatter"));  // options are the lower-case names only
  }

  void mapKeepsItsOrientation() {
    newWindow();
    const PointSet points = mirrored_places();
    open(points, "places.csv");
    ProjectionView* view = window_->view();
    // East is right and north is up in the PCA view, as on the raw lon/lat axes (the grid's).
    const auto extreme = [&](std::size_t dim, bool high) {
      std::size_t best = 0;
      for (std::size_t i = 1; i < points.size(); ++i)
        if ((points.point(i)[dim] > points.point(best)[dim]) == high) best = i;
      return best;
    };
    for (ViewMode mode : {ViewMode::Scatter, ViewMode::Partitions, ViewMode::Replication}) {
      window_->setViewMode(mode);
      const auto& layers = view->layers();
      QCOMPARE(layers.ids.size(), points.size());
      const auto x = [&](std::size_t i) { return layers.xy[2 * i]; };
      const auto y = [&](std::size_t i) { return layers.xy[2 * i + 1]; };
      QVERIFY(x(extreme(kLon, true)) > x(extreme(kLon, false)));
      QVERIFY(y(extreme(kLat, true)) > y(extreme(kLat, false)));
    }
  }

  void axisBoxesNameComponentsInFull() {
    newWindow();
    open(mirrored_places(), "places.csv");
    ProjectionView* view = window_->view();
    for (QComboBox* box : {view->xAxisBox(), view->yAxisBox()}) {
      const QString text = box->currentText();
      QVERIFY2(text.contains(" %): "), qPrintable(text));
      QVERIFY2(box->fontMetrics().horizontalAdvance(text) <= text_room(box),
               qPrintable(QString("%1: %2 px in %3")
                              .arg(text)
                              .arg(box->fontMetrics().horizontalAdvance(text))
                              .arg(text_room(box))));
    }
    QVERIFY(view->xAxisBox()->currentText().startsWith("PC1 ("));
    QVERIFY(view->xAxisBox()->currentText().endsWith("): lon"));
    QVERIFY(view->yAxisBox()->currentText().endsWith("): lat"));
  }

  void legendBesideTheViewAndCollapsible() {
    newWindow();
    open(*clustered_points(500, 2, 2), "points.csv");
    ProjectionView* view = window_->view();
    QVERIFY(view->layers().legend.empty());
    QVERIFY(!view->legend()->isVisible());
    QVERIFY2(view->vtkWidget()->width() > 0.9 * view->width(),
             qPrintable(QString("%1 of %2 px").arg(view->vtkWidget()->width()).arg(view->width())));
    // With entries, it is as wide as they need, leaving most of the width to the drawing.
    window_->setViewMode(ViewMode::Partitions);
    QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
    run();
    QTest::qWait(100);
    QVERIFY(view->legend()->isVisible());
    QVERIFY(view->legend()->width() < view->width() / 2);
    // Beside the view, never over it; a new drawing keeps the view's size (no second render).
    const QRect drawing = view->vtkWidget()->geometry();
    QVERIFY(!drawing.intersects(view->legend()->geometry()));
    window_->setViewMode(ViewMode::Replication);
    view->settle();
    QTest::qWait(100);
    QCOMPARE(view->vtkWidget()->geometry(), drawing);
    // Collapsed, it gives the view its width back; shown again, it comes back beside it.
    view->setLegendShown(false);
    QTest::qWait(100);
    QVERIFY(!view->legend()->isVisible());
    QVERIFY(view->vtkWidget()->width() > 0.9 * view->width());
    view->setLegendShown(true);
    QTest::qWait(100);
    QVERIFY(view->legend()->isVisible());
    QCOMPARE(view->vtkWidget()->geometry(), drawing);
  }

  // Panning or zooming draws at a coarser level of detail until the mouse is released, or 300 ms after
  // the wheel last turned.
  void panningAndZoomingSayWhenTheyEnd() {
    newWindow();
    open(*clustered_points(2000, 2, 2), "points.csv");
    VtkViewWidget* vtk = window_->view()->vtkWidget();
    QSignalSpy interacting(vtk, &VtkViewWidget::interactingChanged);
    QTest::mouseClick(vtk, Qt::LeftButton, {}, vtk->rect().center());
    QCOMPARE(interacting.count(), 0);  // a click alone is no interaction
    const QPoint centre = vtk->rect().center();
    QTest::mousePress(vtk, Qt::LeftButton, {}, centre);
    QMouseEvent move(QEvent::MouseMove, centre + QPoint(40, 10), vtk->mapToGlobal(centre + QPoint(40, 10)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(vtk, &move);
    QCOMPARE(interacting.count(), 1);
    QCOMPARE(interacting.last().first().toBool(), true);
    QTest::mouseRelease(vtk, Qt::LeftButton, {}, centre + QPoint(40, 10));
    QCOMPARE(interacting.count(), 2);
    QCOMPARE(interacting.last().first().toBool(), false);
    QWheelEvent wheel(QPointF(centre), QPointF(vtk->mapToGlobal(centre)), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(vtk, &wheel);
    QCOMPARE(interacting.count(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(interacting.count(), 4, 2000);
    QCOMPARE(interacting.last().first().toBool(), false);
  }

  // The view shows all its points on load, after a run (when the legend has taken its width) and
  // after a resize, for a wide map as for a round cloud.
  void viewsFitTheirData() {
    newWindow();
    open(load_sample("timezones"), "timezones.csv");
    ProjectionView* view = window_->view();
    const auto all_shown = [view] {
      const QRectF shown = view->vtkWidget()->visibleRegion();
      const std::vector<float>& xy = view->layers().xy;
      for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
        if (!shown.contains(xy[i], xy[i + 1])) return false;
      return !xy.empty();
    };
    QVERIFY(all_shown());
    window_->setViewMode(ViewMode::Partitions);
    QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
    run();
    QTest::qWait(100);
    QVERIFY(view->legend()->isVisible());
    QVERIFY(all_shown());
    window_->resize(window_->width() * 3 / 4, window_->height());
    QTest::qWait(100);
    QVERIFY(all_shown());
  }

  void staleResultsSaySo() {
    newWindow();
    open(*clustered_points(20000, 2, 3), "points.csv");
    QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
    window_->parameters()->setEps(0.3);
    run();
    ProjectionView* view = window_->view();
    ResultsPanel* results = window_->results();
    RunHistoryModel* history = window_->history();
    const QModelIndex shown = history->index(0, 0);
    QVERIFY(!view->staleMarker()->isVisible());
    QVERIFY(!results->staleMarker()->isVisible());
    QCOMPARE(history->data(shown, RunHistoryModel::ShownRole).toInt(), int(RunHistoryModel::Shown::Current));

    // eps changed without a run: every place showing run #1 says it is stale, and why.
    window_->parameters()->setEps(0.4);
    QVERIFY(view->staleMarker()->isVisible());
    QVERIFY(results->staleMarker()->isVisible());
    QVERIFY2(view->staleMarker()->text().contains("run #1") && view->staleMarker()->text().contains("eps changed"),
             qPrintable(view->staleMarker()->text()));
    QCOMPARE(history->data(shown, RunHistoryModel::ShownRole).toInt(), int(RunHistoryModel::Shown::Stale));
    QVERIFY(history->data(shown, Qt::ToolTipRole).toString().contains("eps changed"));
    // Back to the run's parameters: current again.
    window_->parameters()->setEps(0.3);
    QVERIFY(!view->staleMarker()->isVisible());

    // A cancelled run leaves the previous one shown, marked. (The brute force over 20,000 points
    // takes far longer than the moment until the cancel.)
    QVERIFY(window_->parameters()->setEngine("cpu-bruteforce"));
    window_->parameters()->setEps(2.0);
    window_->runJoin();
    window_->runController()->cancel();
    window_->waitForTask();
    QCOMPARE(window_->currentRun()->id, std::uint64_t(1));
    QVERIFY(view->staleMarker()->isVisible());
    QVERIFY2(view->staleMarker()->text().contains("cancelled"), qPrintable(view->staleMarker()->text()));
    // A run with the parameters shown is current again.
    QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
    window_->parameters()->setEps(0.3);
    QVERIFY(view->staleMarker()->isVisible());  // still: the cancelled run came after it
    run();
    QVERIFY(!view->staleMarker()->isVisible());
    QVERIFY(!results->staleMarker()->isVisible());
  }

  void runsTableExplainsItselfAndCountsWithoutGaps() {
    newWindow();
    open(*clustered_points(2000, 3, 5), "points.csv");
    QVERIFY(window_->parameters()->setEngine("cpu-grid"));
    window_->runController()->setDebounceMs(20);
    window_->runStatus()->autoRun()->setChecked(true);
    // A change supersedes the run just started, which never finishes: the finished runs are still
    // numbered 1, 2, 3.
    for (int round = 0; round < 3; ++round) {
      window_->runJoin();
      window_->parameters()->setEps(0.2 + 0.1 * round);
      QTRY_VERIFY_WITH_TIMEOUT(window_->history()->rowCount() == round + 1 && !window_->runController()->running(),
                               20000);
    }
    window_->runStatus()->autoRun()->setChecked(false);
    RunHistoryModel* history = window_->history();
    for (int row = 0; row < history->rowCount(); ++row) QCOMPARE(history->run(row)->id, std::uint64_t(row + 1));

    for (int c = 0; c < history->columnCount(); ++c) {
      const QString tip = history->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
      QVERIFY2(tip.size() > 20, qPrintable(history->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()));
    }
    const QString kept =
        history->headerData(history->columnOf("Pairs kept"), Qt::Horizontal, Qt::ToolTipRole).toString();
    QVERIFY2(kept.contains("no:") && kept.contains("run the join again"), qPrintable(kept));

    // The comparison shows its whole table.
    window_->runsPanel()->selectRows({0, 1, 2});
    auto* dialog = qobject_cast<RunCompareDialog*>(window_->runsPanel()->compare());
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto* table = dialog->findChild<QTableView*>();
    QVERIFY(table);
    QVERIFY(table->viewport()->width() >= table->horizontalHeader()->length());
    dialog->close();
  }

  void colourBlindPaletteFromTheViewMenu() {
    newWindow();
    open(*clustered_points(1000, 2, 6), "points.csv");
    QVERIFY(window_->parameters()->setEngine("cpu-kmeans"));
    window_->parameters()->setK(5);
    run();
    window_->setViewMode(ViewMode::Partitions);
    QAction* colorblind = nullptr;
    for (QAction* action : window_->findChildren<QAction*>())
      if (action->text() == "Colour-&blind-safe palette") colorblind = action;
    QVERIFY(colorblind && colorblind->isCheckable() && !colorblind->isChecked());
    const auto colours_follow = [&](PaletteKind palette) {
      const Layers& layers = window_->view()->layers();
      const auto& membership = window_->currentRun()->result.partitions->membership;
      for (std::size_t v = 0; v < layers.ids.size(); ++v) {
        const Rgb expected = category_color(membership[layers.ids[v]], palette);
        if (Rgb{layers.rgb[3 * v], layers.rgb[3 * v + 1], layers.rgb[3 * v + 2]} != expected) return false;
      }
      return true;
    };
    QVERIFY(colours_follow(PaletteKind::Distinct));
    colorblind->trigger();
    QVERIFY(colours_follow(PaletteKind::ColorBlind));
    QCOMPARE(category_color(0, PaletteKind::ColorBlind), Rgb({230, 159, 0}));  // Okabe & Ito's orange
  }

  void samplesOpenByName() {
    QVERIFY(!sample_names().contains("README.md"));
    QVERIFY(sample_names().contains("clusters8d.npy"));
    QCOMPARE(load_sample("clusters8d").dims(), std::size_t(8));
    QCOMPARE(load_sample("clusters8d.npy").size(), load_sample("clusters8d").size());
    try {
      load_sample("nosuch");
      QFAIL("an unknown sample loaded");
    } catch (const Error& error) {
      QCOMPARE(error.kind(), ErrorKind::BadInput);
      QVERIFY2(QString(error.what()).contains("blobs2d.csv, clusters8d.npy"), error.what());
    }
    newWindow();
    QMenu* samples = nullptr;
    for (QMenu* menu : window_->findChildren<QMenu*>())
      if (menu->title() == "Open &Sample") samples = menu;
    QVERIFY(samples);
    for (QAction* action : samples->actions()) QVERIFY(action->text() != "README.md");
  }
};

SIMJOIN_WINDOW_TEST_MAIN(TestWindowLabels, simjoin::ui::testing::Dialogs::Shown)
#include "test_window_labels.moc"
