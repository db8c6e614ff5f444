#pragma once
// Text and ticks of figures laid out in 96-dpi units at their printed size (image_size.hpp): fonts
// given in printed points, text wrapped at word boundaries (never cut inside a word), and readable
// tick values for an axis.
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>

#include <vector>

namespace simjoin::ui {

// Printed sizes of figure text, in points; nothing printed is smaller than kSmallTextPt.
inline constexpr double kSmallTextPt = 7.5, kAxisTitlePt = 8.25, kTitlePt = 9;

// A font of `points` printed points for a 96-dpi layout.
QFont figure_font(double points, bool bold = false);
// Size of `text` wrapped at word boundaries to `width` (explicit '\n' break lines too).
QSizeF wrapped_size(const QFont& font, double width, const QString& text);
// Draws `text` wrapped to `width` from `top_left`; returns the height used.
double draw_wrapped(QPainter& painter, QPointF top_left, double width, const QFont& font, const QString& text,
                    Qt::Alignment align = Qt::AlignLeft);
// Tick values in [low, high] at a step of 1, 2 or 5 times a power of ten, at most `max_count` of them
// unless that would leave only one.
std::vector<double> nice_ticks(double low, double high, int max_count);
// A tick value without float noise: 0.30000000000000004 -> "0.3".
QString tick_text(double value, double step);

}  // namespace simjoin::ui
