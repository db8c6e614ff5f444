#include "ui/charts/chart_caption.hpp"

#include <QFileInfo>
#include <QTextDocumentFragment>

namespace simjoin::ui {

namespace {
QString source_name(const PointSet& points) {
  const QString source = QString::fromStdString(points.source);
  return source.isEmpty() ? QObject::tr("points") : QFileInfo(source).fileName();
}
}  // namespace

void set_chart_caption(QChart& chart, const QString& title, const QStringList& subtitle) {
  QString html = "<b>" + title.toHtmlEscaped() + "</b>";
  for (const QString& line : subtitle) html += "<br><small>" + line.toHtmlEscaped() + "</small>";
  chart.setTitle(html);
}

QString plain_title(const QChart& chart) {
  return QTextDocumentFragment::fromHtml(chart.title()).toPlainText().replace('\n', " / ");
}

QString data_description(const PointSet& a, const PointSet* b) {
  if (!b) return QString("%1, n = %2, d = %3").arg(source_name(a)).arg(a.size()).arg(a.dims());
  return QString("%1 (n = %2) \u22c8 %3 (n = %4), d = %5")
      .arg(source_name(a))
      .arg(a.size())
      .arg(source_name(*b))
      .arg(b->size())
      .arg(a.dims());
}

QString k_description(int k) { return k > 0 ? QString("k = %1").arg(k) : QString("k = auto"); }

QString machine_subtitle(const QString& machine) {
  const qsizetype none = machine.indexOf("GPU: none");
  return none < 0 ? machine : machine.left(none) + QObject::tr("no GPU");
}

}  // namespace simjoin::ui
