// The layout of a view figure (view_figure.hpp): the room the axes need, then the key placed where it
// leaves the plot the most area, at the least shortening that keeps the plot's share of the figure.
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

#include "ui/export/figure_text.hpp"
#include "ui/export/image_export.hpp"
#include "ui/views/figure_key.hpp"
#include "ui/views/view_figure.hpp"

namespace simjoin::ui {

namespace {

constexpr double kMargin = 6, kGap = 4, kKeyGap = 5, kTickGap = 4;
// The plan keeps this much more than kMinPlotShare, for the y tick labels measured last.
constexpr double kPlanShare = kMinPlotShare + 0.02;
// A key beside the plot takes at most this share of the width.
constexpr double kMostBesideWidth = 0.42;

double line_height(double points) { return QFontMetricsF(figure_font(points)).height(); }

// The room around the plot frame: the title above, tick labels and axis titles left and below. The
// axis titles are wrapped to half the page's side, which the frame never falls below.
struct Room {
  double left = 0, top = 0, right = kMargin, bottom = 0;
  double title_h = 0, x_title_h = 0, y_title_h = 0;
};

Room axes_room(const QSizeF& page, const ViewFigure& figure, double tick_width) {
  Room room;
  const QFont title_font = figure_font(kAxisTitlePt);
  room.y_title_h =
      std::max(line_height(kAxisTitlePt), wrapped_size(title_font, page.height() / 2, figure.y_title).height());
  room.x_title_h =
      std::max(line_height(kAxisTitlePt), wrapped_size(title_font, page.width() / 2, figure.x_title).height());
  if (!figure.title.isEmpty())
    room.title_h = wrapped_size(figure_font(kTitlePt, true), page.width() - 2 * kMargin, figure.title).height() + kGap;
  room.top = kMargin + room.title_h;
  room.left = kMargin + room.y_title_h + kGap + tick_width + kTickGap;
  room.bottom = kTickGap + line_height(kSmallTextPt) + 2 + room.x_title_h + kMargin;
  return room;
}

QRectF frame_in(const QSizeF& page, const Room& room, double beside_width, double under_height) {
  return QRectF(QPointF(room.left, room.top),
                QPointF(page.width() - room.right - (beside_width > 0 ? beside_width + kKeyGap : 0),
                        page.height() - room.bottom - (under_height > 0 ? under_height + kKeyGap : 0)));
}

double share(const QRectF& frame, const QSizeF& page) {
  return frame.isValid() ? frame.width() * frame.height() / (page.width() * page.height()) : 0;
}

struct KeyPlan {
  int level = 0;
  bool beside = false;
  std::vector<KeyItem> items;
  KeyLayout layout;
  QRectF frame;  // the plot frame the key leaves
};

// The key's placements at one level: beside the plot in 1 or 2 columns (clear of the x tick labels),
// under it in 1 to 4 columns or flowing.
std::vector<KeyPlan> placements(const QSizeF& page, const Room& room, const std::vector<KeyItem>& items, int level) {
  std::vector<KeyPlan> plans;
  const double inner = page.width() - 2 * kMargin, natural = key_natural_width(items, kMostBesideWidth * inner);
  for (int columns = 1; columns <= 2; ++columns) {
    const double width = std::min(kMostBesideWidth * inner, columns * natural + (columns - 1) * kKeyGap);
    const KeyLayout layout = key_grid(items, width, columns);
    if (layout.height <= page.height() - room.top - room.bottom)
      plans.push_back({level, true, items, layout, frame_in(page, room, width, 0)});
  }
  std::vector<KeyLayout> under = {key_flow(items, inner)};
  for (int columns = 1; columns <= 4; ++columns) under.push_back(key_grid(items, inner, columns));
  for (KeyLayout& layout : under)
    plans.push_back({level, false, items, layout, frame_in(page, room, 0, layout.height)});
  return plans;
}

// The least shortened key that leaves the plot kPlanShare, placed where the plot gets the most area;
// where none does, the most compact key where it leaves the most.
KeyPlan plan_key(const QSizeF& page, const Room& room, const Layers& layers) {
  if (key_items(layers, 0).empty()) return {0, false, {}, {}, frame_in(page, room, 0, 0)};
  KeyPlan best;
  for (int level = 0; level < kKeyLevels; ++level) {
    double best_area = -1;
    for (KeyPlan& plan : placements(page, room, key_items(layers, level), level)) {
      const double area = share(plan.frame, page);
      if ((area >= kPlanShare || level == kKeyLevels - 1) && area > best_area) best_area = area, best = std::move(plan);
    }
    if (best_area >= kPlanShare) break;
  }
  return best;
}

struct AxisTicks {
  std::vector<double> x, y;
  double x_step = 1, y_step = 1;
  double x_scale = 1, y_scale = 1;  // the labels are the values divided by these
};

// Values of 10^5 and more (metres from the Earth's centre), or below 10^-3, are labelled divided by
// a power of 1000, which the axis title states: "5", not "5e+06".
double tick_scale(const std::vector<double>& ticks) {
  double most = 0;
  for (double t : ticks) most = std::max(most, std::abs(t));
  if (!(most >= 1e5 || (most > 0 && most < 1e-3))) return 1;
  return std::pow(10.0, 3 * std::floor(std::log10(most) / 3));
}

QString scaled_title(const QString& title, double scale) {
  if (scale == 1) return title;
  static const QString superscripts = QString::fromUtf8("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079");
  const int power = int(std::lround(std::log10(scale)));
  QString exponent = power < 0 ? QString(QChar(0x207b)) : QString();
  for (const QChar digit : QString::number(std::abs(power))) exponent += superscripts[digit.digitValue()];
  return title + QString::fromUtf8(" (\u00d710") + exponent + ")";
}

QString scaled_tick(double value, double step, double scale) { return tick_text(value / scale, step / scale); }

double widest_tick(const std::vector<double>& ticks, double step, double scale) {
  const QFontMetricsF metrics(figure_font(kSmallTextPt));
  double width = 0;
  for (double t : ticks) width = std::max(width, metrics.horizontalAdvance(scaled_tick(t, step, scale)));
  return width;
}

// Ticks whose labels never run together: fewer of them where the labels are wide or the frame small.
AxisTicks axis_ticks(const QRectF& region, const QRectF& frame) {
  AxisTicks ticks;
  const double text_h = line_height(kSmallTextPt);
  for (int count = std::max(3, int(frame.width() / 45));; --count) {
    ticks.x = nice_ticks(region.left(), region.right(), count);
    ticks.x_step = ticks.x.size() > 1 ? ticks.x[1] - ticks.x[0] : 1;
    ticks.x_scale = tick_scale(ticks.x);
    const double spacing = frame.width() * ticks.x_step / region.width();
    if (count <= 2 || widest_tick(ticks.x, ticks.x_step, ticks.x_scale) + 8 < spacing) break;
  }
  for (int count = std::max(3, int(frame.height() / 28));; --count) {
    ticks.y = nice_ticks(region.top(), region.bottom(), count);
    ticks.y_step = ticks.y.size() > 1 ? ticks.y[1] - ticks.y[0] : 1;
    ticks.y_scale = tick_scale(ticks.y);
    const double spacing = frame.height() * ticks.y_step / region.height();
    if (count <= 2 || 1.6 * text_h + 2 < spacing) break;
  }
  return ticks;
}

// Draws `text` in `box` and notes the box.
void draw_text(QPainter& painter, const QRectF& box, int flags, const QString& text, std::vector<QRectF>& texts) {
  painter.drawText(box, flags, text);
  texts.push_back(box);
}

// Tick marks and labels. The labels stay on the page, and the y labels above the x labels' row, so
// that the two at the lower left corner never meet.
void paint_ticks(QPainter& painter, const QSizeF& page, const QRectF& frame, const QRectF& region,
                 const AxisTicks& ticks, std::vector<QRectF>& texts) {
  const QTransform to_frame = world_to_frame(region, frame);
  const QFontMetricsF metrics(figure_font(kSmallTextPt));
  painter.setFont(figure_font(kSmallTextPt));
  for (double t : ticks.x) {
    const double x = to_frame.map(QPointF(t, 0)).x();
    painter.drawLine(QPointF(x, frame.bottom()), QPointF(x, frame.bottom() + 3));
    const QString text = scaled_tick(t, ticks.x_step, ticks.x_scale);
    const double width = metrics.horizontalAdvance(text) + 1;
    const double left = std::clamp(x - width / 2, 1.0, page.width() - width - 1);
    draw_text(painter, QRectF(left, frame.bottom() + kTickGap, width, metrics.height()), Qt::AlignLeft | Qt::AlignTop,
              text, texts);
  }
  for (double t : ticks.y) {
    const double y = to_frame.map(QPointF(0, t)).y();
    painter.drawLine(QPointF(frame.left() - 3, y), QPointF(frame.left(), y));
    const QString text = scaled_tick(t, ticks.y_step, ticks.y_scale);
    const double width = metrics.horizontalAdvance(text) + 1, height = metrics.height();
    const double top = std::clamp(y - height / 2, frame.top() - 2, frame.bottom() + 1 - height);
    draw_text(painter, QRectF(frame.left() - kTickGap - width, top, width, height), Qt::AlignRight | Qt::AlignVCenter,
              text, texts);
  }
}

// The frame, the ticks and the axes' titles, wrapped to the frame's sides (never cut).
void paint_axes(QPainter& painter, const QSizeF& page, const QRectF& frame, const QRectF& region,
                const ViewFigure& figure, std::vector<QRectF>& texts) {
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QPen(Qt::black, 0.75));
  painter.drawRect(frame);
  const AxisTicks ticks = axis_ticks(region, frame);
  paint_ticks(painter, page, frame, region, ticks, texts);
  const QString x_title = scaled_title(figure.x_title, ticks.x_scale);
  const QString y_title = scaled_title(figure.y_title, ticks.y_scale);
  const QFont font = figure_font(kAxisTitlePt);
  const QSizeF x_size = wrapped_size(font, frame.width(), x_title);
  const double x_top = frame.bottom() + kTickGap + line_height(kSmallTextPt) + 2;
  draw_wrapped(painter, {frame.left(), x_top}, frame.width(), font, x_title, Qt::AlignHCenter);
  texts.emplace_back(frame.center().x() - x_size.width() / 2, x_top, x_size.width(), x_size.height());
  const QSizeF y_size = wrapped_size(font, frame.height(), y_title);
  painter.save();
  painter.translate(kMargin, frame.center().y());
  painter.rotate(-90);
  draw_wrapped(painter, {-frame.height() / 2, 0}, frame.height(), font, y_title, Qt::AlignHCenter);
  painter.restore();
  texts.emplace_back(kMargin, frame.center().y() - y_size.width() / 2, y_size.height(), y_size.width());
}

QString notes_text(const Layers& layers) {
  QStringList notes;
  for (const std::string& note : layers.notes) notes << QString::fromStdString(note);
  return notes.join("\n");
}

// The whole plan: the room, the key, and the notes where they still leave the plot kPlanShare.
struct FigurePlan {
  Room room;
  KeyPlan key;
  QString notes;
  double notes_h = 0;
};

FigurePlan plan_figure(const QSizeF& page, const ViewFigure& figure, const QRectF& region) {
  const Layers& layers = *figure.layers;
  // The y tick labels' width depends on the ticks, which depend on the frame: measured on the frame
  // without a key, then fitted (paint_view_figure).
  const QRectF rough = frame_in(page, axes_room(page, figure, 0), 0, 0);
  const AxisTicks ticks = axis_ticks(fit_aspect(region, rough.width() / rough.height()), rough);
  ViewFigure titled = figure;
  titled.x_title = scaled_title(figure.x_title, ticks.x_scale);
  titled.y_title = scaled_title(figure.y_title, ticks.y_scale);
  FigurePlan plan;
  plan.room = axes_room(page, titled, widest_tick(ticks.y, ticks.y_step, ticks.y_scale) + 1);
  plan.key = plan_key(page, plan.room, layers);
  plan.notes = notes_text(layers);
  plan.notes_h = wrapped_size(figure_font(kSmallTextPt), page.width() - 2 * kMargin, plan.notes).height();
  QRectF with_notes = plan.key.frame;
  with_notes.setBottom(with_notes.bottom() - plan.notes_h - kGap);
  if (plan.notes.isEmpty() || share(with_notes, page) < kPlanShare) {
    plan.notes.clear();
    plan.notes_h = 0;
  } else {
    plan.key.frame = with_notes;
  }
  return plan;
}

// The key and the notes, under the axes or beside the plot; their text boxes into `placed`.
void paint_key_and_notes(QPainter& painter, const QSizeF& page, const FigurePlan& plan, ViewFigureLayout& placed) {
  const QRectF& frame = placed.plot;
  const double under_axes = frame.bottom() + plan.room.bottom - kMargin;
  if (!plan.key.items.empty()) {
    const KeyLayout& key = plan.key.layout;
    placed.legend = plan.key.beside ? QRectF(frame.right() + kKeyGap, frame.top(), key.width, key.height)
                                    : QRectF(kMargin, under_axes + kKeyGap, key.width, key.height);
    for (const QRectF& box : paint_key(painter, placed.legend.topLeft(), plan.key.items, key))
      placed.texts.push_back(box);
    for (const KeyItem& item : plan.key.items) placed.key.push_back(item.text);
    placed.key_level = plan.key.level;
  }
  if (plan.notes.isEmpty()) return;
  const double top = (plan.key.beside || plan.key.items.empty() ? under_axes : placed.legend.bottom()) + kGap;
  const double width = page.width() - 2 * kMargin;
  painter.setPen(QColor(60, 60, 60));
  placed.notes =
      QRectF(kMargin, top, width, draw_wrapped(painter, {kMargin, top}, width, figure_font(kSmallTextPt), plan.notes));
  placed.texts.push_back(placed.notes);
}

void paint_title(QPainter& painter, const QSizeF& page, const QString& title, std::vector<QRectF>& texts) {
  if (title.isEmpty()) return;
  const QFont font = figure_font(kTitlePt, true);
  const double width = page.width() - 2 * kMargin;
  const QSizeF size = wrapped_size(font, width, title);
  painter.setPen(Qt::black);
  draw_wrapped(painter, {kMargin, kMargin}, width, font, title, Qt::AlignHCenter);
  texts.emplace_back(page.width() / 2 - size.width() / 2, kMargin, size.width(), size.height());
}

}  // namespace

ViewFigureLayout paint_view_figure(QPainter& painter, const QRectF& target, const QSizeF& layout,
                                   const ViewFigure& figure) {
  painter.save();
  painter.translate(target.topLeft());
  painter.scale(target.width() / layout.width(), target.height() / layout.height());
  painter.fillRect(QRectF(QPointF(0, 0), layout), Qt::white);
  const QRectF data = drawable_region(figure.region.isEmpty() ? layers_bounds(*figure.layers) : figure.region);
  const FigurePlan plan = plan_figure(layout, figure, data);
  QRectF frame = plan.key.frame;
  // Tick labels wider than measured on the rough frame push the frame right, never over them.
  const AxisTicks ticks = axis_ticks(fit_aspect(data, frame.width() / frame.height()), frame);
  frame.setLeft(std::max(frame.left(), kMargin + plan.room.y_title_h + kGap + kTickGap +
                                           widest_tick(ticks.y, ticks.y_step, ticks.y_scale) + 1));
  ViewFigureLayout placed{frame, {}, {}, fit_aspect(data, frame.width() / frame.height()), {}, 0, {}};
  paint_view_plot(painter, frame, placed.region, *figure.layers, figure.max_vector_points);
  paint_title(painter, layout, figure.title, placed.texts);
  paint_axes(painter, layout, frame, placed.region, figure, placed.texts);
  paint_key_and_notes(painter, layout, plan, placed);
  painter.restore();
  return placed;
}

ViewFigureLayout save_view_figure(const ViewFigure& figure, const std::string& path, const ImageSize& size) {
  ViewFigureLayout placed;
  const QString title = figure.title.isEmpty() ? figure.x_title + " / " + figure.y_title : figure.title;
  paint_to_file(path, size, title, [&](QPainter& painter, const QRectF& target) {
    placed = paint_view_figure(painter, target, size.layout(), figure);
  });
  return placed;
}

}  // namespace simjoin::ui
