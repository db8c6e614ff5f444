#include "ui/views/figure_key.hpp"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>

#include "ui/export/figure_text.hpp"

namespace simjoin::ui {

namespace {

constexpr double kGap = 3, kColumnGap = 10, kSwatch = 7, kRowGap = 1.5;

QColor color_of(const Rgb& rgb) { return QColor(rgb[0], rgb[1], rgb[2]); }

KeyItem item_of(const std::string& text, const Rgb& rgb) { return {QString::fromStdString(text), color_of(rgb)}; }

// The legend's entries: in full (level 0), as briefs under their group's heading (1 to 2), or each
// group as its summary line (3 and beyond, its least form at 5); from level 4 the other entries by
// their briefs too.
void add_legend(const Layers& layers, int level, std::vector<KeyItem>& items) {
  std::vector<bool> group_done(layers.legend_groups.size(), false);
  for (const LegendEntry& entry : layers.legend) {
    const bool grouped = entry.group >= 0 && std::size_t(entry.group) < layers.legend_groups.size();
    if (!grouped || level == 0) {
      items.push_back(item_of(level >= 4 && !entry.brief.empty() ? entry.brief : entry.label, entry.color));
      continue;
    }
    const LegendGroup& group = layers.legend_groups[entry.group];
    if (level >= 3) {
      const std::string& summary = level >= 5 && !group.least.empty() ? group.least : group.summary;
      if (!group_done[entry.group]) items.push_back(item_of(summary, group.summary_color));
    } else {
      if (!group_done[entry.group]) items.push_back({QString::fromStdString(group.heading), {}, true});
      items.push_back(item_of(entry.brief.empty() ? entry.label : entry.brief, entry.color));
    }
    group_done[entry.group] = true;
  }
}

// The picked point's facts under a heading: all of them (levels 0 and 1), without the lines that
// detail the one above (indented, levels 2 and 3), or the first alone, named as the picked point's
// ("Picked point 94: home partition 4").
void add_facts(const Layers& layers, int level, std::vector<KeyItem>& items) {
  if (layers.picked_facts.empty()) return;
  if (level >= 4) {
    const LegendEntry& first = layers.picked_facts.front();
    const bool names_point = first.label.rfind("point ", 0) == 0;
    items.push_back(item_of((names_point ? "Picked " : "Picked point: ") + first.label, first.color));
    return;
  }
  items.push_back({QObject::tr("Picked point"), {}, true});
  for (const LegendEntry& fact : layers.picked_facts) {
    const bool detail = fact.label.rfind("  ", 0) == 0;
    if (detail && level >= 2) continue;
    items.push_back(item_of(detail ? fact.label.substr(2) : fact.label, fact.color));
  }
}

QFont item_font(const KeyItem& item) { return figure_font(item.points, item.heading); }

double item_height(const KeyItem& item, double width) {
  return wrapped_size(item_font(item), width - (item.heading ? 0 : kSwatch + kGap), item.text).height();
}

}  // namespace

std::vector<KeyItem> key_items(const Layers& layers, int level) {
  std::vector<KeyItem> items;
  add_legend(layers, level, items);
  add_facts(layers, std::min(level, 4), items);
  if (level >= 5)
    for (KeyItem& item : items) item.points = kLeastTextPt;
  return items;
}

KeyLayout key_grid(const std::vector<KeyItem>& items, double width, int columns) {
  KeyLayout layout{{}, width, 0};
  const double column_width = (width - (columns - 1) * kColumnGap) / columns;
  int column = columns;
  double row_top = -kRowGap, row_height = 0;
  for (const KeyItem& item : items) {
    if (column == columns || (item.heading && column > 0)) row_top += row_height + kRowGap, row_height = 0, column = 0;
    // A heading spans the row.
    const double item_width = item.heading ? width : column_width;
    const double height = item_height(item, item_width);
    layout.boxes.emplace_back(column * (column_width + kColumnGap), row_top, item_width, height);
    row_height = std::max(row_height, height);
    column = item.heading ? columns : column + 1;
  }
  layout.height = row_top + row_height + kRowGap;
  return layout;
}

KeyLayout key_flow(const std::vector<KeyItem>& items, double width) {
  KeyLayout layout{{}, width, 0};
  double x = 0, row_top = 0, row_height = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KeyItem& item = items[i];
    const double natural = std::min(width, key_natural_width({item}, width));
    // A heading starts a row, and shares it with the item after it at least.
    const double keep =
        item.heading && i + 1 < items.size() ? kColumnGap + key_natural_width({items[i + 1]}, width) : 0;
    if (x > 0 && (item.heading || x + natural + keep > width)) row_top += row_height + kRowGap, row_height = 0, x = 0;
    const double height = item_height(item, natural);
    layout.boxes.emplace_back(x, row_top, natural, height);
    row_height = std::max(row_height, height);
    x += natural + kColumnGap;
  }
  layout.height = items.empty() ? 0 : row_top + row_height + kRowGap;
  return layout;
}

double key_natural_width(const std::vector<KeyItem>& items, double limit) {
  double width = 0;
  for (const KeyItem& item : items)
    width = std::max(width,
                     QFontMetricsF(item_font(item)).horizontalAdvance(item.text) + (item.heading ? 0 : kSwatch + kGap));
  return std::min(limit, width + 2);
}

std::vector<QRectF> paint_key(QPainter& painter, QPointF top_left, const std::vector<KeyItem>& items,
                              const KeyLayout& layout) {
  std::vector<QRectF> texts;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KeyItem& item = items[i];
    const QRectF box = layout.boxes[i].translated(top_left);
    const QFont font = item_font(item);
    double text_left = box.left();
    if (!item.heading) {
      painter.setPen(QPen(QColor(60, 60, 60), 0.5));
      painter.setBrush(item.color);
      const double line = QFontMetricsF(font).height();
      painter.drawRect(QRectF(box.left(), box.top() + (line - kSwatch) / 2, kSwatch, kSwatch));
      text_left += kSwatch + kGap;
    }
    const double width = box.right() - text_left;
    painter.setPen(Qt::black);
    const QSizeF size = wrapped_size(font, width, item.text);
    draw_wrapped(painter, {text_left, box.top()}, width, font, item.text);
    texts.emplace_back(QPointF(text_left, box.top()), size);
  }
  return texts;
}

}  // namespace simjoin::ui
