#pragma once
// Chart titles fit for a figure: the title in bold over subtitle lines that name the data, the
// parameters, the engines and the machine, so that an exported chart says what it measured.
#include <QChart>
#include <QString>
#include <QStringList>

#include "core/points/point_set.hpp"

namespace simjoin::ui {

// Sets the chart's title (rich text) to `title` over `subtitle` lines, in a smaller font.
void set_chart_caption(QChart& chart, const QString& title, const QStringList& subtitle);
// The chart's title as plain text (lines joined by " / "), for file metadata.
QString plain_title(const QChart& chart);

// "timezones.csv, n = 313, d = 2", or for A join B "a.csv (n = 10) ⋈ b.csv (n = 20), d = 3".
QString data_description(const PointSet& a, const PointSet* b);
// The machine line as a subtitle says it: "AMD EPYC 7B13, 2 threads; no GPU", without why no GPU
// could be used (a driver's message belongs in the run's notes, not on a printed figure).
QString machine_subtitle(const QString& machine);
// "k = 8", or "k = auto" for 0.
QString k_description(int k);

}  // namespace simjoin::ui
