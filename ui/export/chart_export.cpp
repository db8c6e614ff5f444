#include "ui/export/chart_export.hpp"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGraphicsScene>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QXYSeries>

#include <memory>

#include "core/error.hpp"
#include "core/io/file_io.hpp"
#include "ui/export/csv_format.hpp"

namespace simjoin::ui {

namespace {
// Paints the chart at `size` onto `painter`. A chart in no scene gets a temporary one; a chart shown
// in a view is resized for the export and then given its size back.
void render_chart(QChart& chart, QSize size, QPainter& painter) {
  std::unique_ptr<QGraphicsScene> own_scene;
  if (!chart.scene()) {
    own_scene = std::make_unique<QGraphicsScene>();
    own_scene->addItem(&chart);
  }
  const QRectF old_geometry = chart.geometry();
  chart.setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
  QApplication::processEvents();  // lets the chart lay out its axes and legend at the new size
  chart.scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), chart.sceneBoundingRect());
  if (own_scene)
    own_scene->removeItem(&chart);
  else
    chart.setGeometry(old_geometry);
}
}  // namespace

void save_chart_png(QChart& chart, const std::string& path, QSize size) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    render_chart(chart, size, painter);
  }
  if (!image.save(QString::fromStdString(path), "PNG"))
    fail(ErrorKind::Usage, path + ": cannot write the PNG image");
}

void save_chart_svg(QChart& chart, const std::string& path, QSize size) {
  QSvgGenerator generator;
  generator.setFileName(QString::fromStdString(path));
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(chart.title());
  QPainter painter;
  if (!painter.begin(&generator)) fail(ErrorKind::Usage, path + ": cannot write the SVG image");
  render_chart(chart, size, painter);
  if (!painter.end()) fail(ErrorKind::Usage, path + ": cannot write the SVG image");
}

void save_chart_pdf(QChart& chart, const std::string& path, QSize size) {
  // One page of `size` pixels at 96 per inch, without margins: the chart as vectors and text.
  QPdfWriter pdf(QString::fromStdString(path));
  pdf.setResolution(96);
  pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  pdf.setTitle(chart.title());
  QPainter painter;
  if (!painter.begin(&pdf)) fail(ErrorKind::Usage, path + ": cannot write the PDF document");
  render_chart(chart, size, painter);
  if (!painter.end()) fail(ErrorKind::Usage, path + ": cannot write the PDF document");
}

void save_chart_image(QChart& chart, const std::string& path, QSize size) {
  const std::string ext = lower_extension(path);
  if (ext == ".png") return save_chart_png(chart, path, size);
  if (ext == ".svg") return save_chart_svg(chart, path, size);
  if (ext == ".pdf") return save_chart_pdf(chart, path, size);
  fail(ErrorKind::Usage, path + ": unknown chart image type '" + ext + "'; use .png, .svg or .pdf");
}

void write_chart_csv(const QChart& chart, const std::string& path) {
  std::string text = "series,x,y\n";
  const auto row = [&](const QString& series, const std::string& x, double y) {
    text += csv_field(series.toStdString()) + ',' + x + ',' + format_number(y) + '\n';
  };
  // Qt Charts' getters are not const; the chart's series list hands out mutable pointers.
  for (QAbstractSeries* series : chart.series()) {
    if (const auto* xy = qobject_cast<const QXYSeries*>(series)) {
      for (const QPointF& point : xy->points()) row(xy->name(), format_number(point.x()), point.y());
    } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
      QStringList categories;
      for (QAbstractAxis* axis : bars->attachedAxes())
        if (auto* category_axis = qobject_cast<QBarCategoryAxis*>(axis))
          categories = category_axis->categories();
      for (const QBarSet* set : bars->barSets())
        for (int i = 0; i < set->count(); ++i)
          row(set->label(), csv_field((i < categories.size() ? categories[i] : QString::number(i)).toStdString()),
              set->at(i));
    }
  }
  OutputFile file(path);
  file.write(text);
  file.close();
}

}  // namespace simjoin::ui
