#pragma once
// The key of a view figure: the legend and the picked point's facts, at a level of detail chosen to
// fit the room the plot leaves (view_figure_layout.cpp): in full; with a group's entries shortened to
// their briefs under a heading that states their meaning once; without the facts' detail lines; with
// a group replaced by its summary line; with every entry's brief and the picked point's first fact
// alone; and that in 7-pt type. Laid out in columns or as flowing text, in 96-dpi units of the printed figure.
#include <QColor>
#include <QPainter>
#include <QRectF>
#include <QString>

#include <vector>

#include "ui/export/figure_text.hpp"
#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

struct KeyItem {
  QString text;
  QColor color;
  bool heading = false;  // a line without a swatch that starts a row of its own
  double points = kSmallTextPt;
};

// Levels of detail: 0 is the full legend, kKeyLevels - 1 the most compact (level 4 in the
// smallest type a printed figure uses, kLeastTextPt, each group by its least form).
inline constexpr int kKeyLevels = 6;
inline constexpr double kLeastTextPt = 7;
std::vector<KeyItem> key_items(const Layers& layers, int level);

// Where each item goes, relative to the key's top left corner.
struct KeyLayout {
  std::vector<QRectF> boxes;  // each item's box: swatch and text
  double width = 0, height = 0;
};
// In `columns` columns of equal width, filled row by row; each row as tall as its tallest entry.
KeyLayout key_grid(const std::vector<KeyItem>& items, double width, int columns);
// As text flows: each item at its own width, as many to a row as fit `width` (a heading starts a row).
KeyLayout key_flow(const std::vector<KeyItem>& items, double width);
// The width of the longest item on one line, within `limit`.
double key_natural_width(const std::vector<KeyItem>& items, double limit);
// Paints the items at `top_left`; returns each item's text box, for the layout's report.
std::vector<QRectF> paint_key(QPainter& painter, QPointF top_left, const std::vector<KeyItem>& items,
                              const KeyLayout& layout);

}  // namespace simjoin::ui
