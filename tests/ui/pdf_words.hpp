#pragma once
// The words of a PDF figure and their boxes (pdftotext -bbox, poppler-utils), for the tests that
// measure figures' layouts in the files an author prints.
#include <QProcess>
#include <QRectF>
#include <QRegularExpression>
#include <QSizeF>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <vector>

namespace simjoin::ui::testing {

struct Word {
  QString text;
  QRectF box;  // points
};

inline std::vector<Word> pdf_words(const QString& path) {
  QProcess process;
  process.start(QStandardPaths::findExecutable("pdftotext"), {"-bbox", path, "-"});
  process.waitForFinished(30000);
  const QString html = QString::fromUtf8(process.readAllStandardOutput());
  static const QRegularExpression word(
      R"re(<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>)re");
  std::vector<Word> words;
  for (auto match = word.globalMatch(html); match.hasNext();) {
    const auto m = match.next();
    words.push_back({m.captured(5), QRectF(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                                           QPointF(m.captured(3).toDouble(), m.captured(4).toDouble()))});
  }
  return words;
}

// A word as pdftotext escapes it, back as text.
inline QString unescaped(QString text) {
  return text.replace("&amp;", "&")
      .replace("&lt;", "<")
      .replace("&gt;", ">")
      .replace("&quot;", "\"")
      .replace("&apos;", "'")
      .replace("&#39;", "'")
      .replace(QChar(0x2019), "'")
      .replace(QChar(0xFB01), "fi")
      .replace(QChar(0xFB02), "fl");
}

// Whether two boxes overlap by more than `slack` on every side.
inline bool overlap(const QRectF& a, const QRectF& b, double slack) {
  return a.adjusted(slack, slack, -slack, -slack).intersects(b.adjusted(slack, slack, -slack, -slack));
}

inline QString describe(const QRectF& r) {
  return QString("(%1, %2, %3 x %4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// What a figure's PDF must be: every word on the page, whole (no "..."), apart from every other word
// outside the plot (numbers inside it belong to the data), and each key entry's words in the key's
// box (pdftotext reads a line across the key's columns). `page`, `plot` and `key` are in layout units
// (96 dpi). Returns the first failure, or nothing.
inline QString pdf_layout_failure(const QString& pdf, const QSizeF& page_size, const QRectF& plot_box,
                                  const QRectF& key_box, const std::vector<QString>& entries) {
  const std::vector<Word> words = pdf_words(pdf);
  if (words.empty()) return "no words";
  const double to_pt = 72.0 / 96.0;
  const QRectF page(QPointF(0, 0), page_size * to_pt);
  const QRectF plot(plot_box.topLeft() * to_pt, plot_box.bottomRight() * to_pt);
  const QRectF key(key_box.topLeft() * to_pt, key_box.bottomRight() * to_pt);
  QStringList in_key;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const QString quoted = "'" + words[i].text + "' " + describe(words[i].box);
    if (key.adjusted(-1, -1, 1, 1).contains(words[i].box)) in_key << unescaped(words[i].text);
    if (!page.adjusted(-0.5, -0.5, 0.5, 0.5).contains(words[i].box)) return quoted + " off the page";
    if (words[i].text.contains("...") || words[i].text.contains(QChar(0x2026))) return quoted + " is cut short";
    if (plot.intersects(words[i].box)) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (!plot.intersects(words[j].box) && overlap(words[i].box, words[j].box, 0.8))
        return quoted + " over '" + words[j].text + "' " + describe(words[j].box);
  }
  for (const QString& entry : entries)
    for (const QString& word : entry.simplified().split(' '))
      if (!in_key.removeOne(word)) return "lacks '" + word + "' of the key entry '" + entry + "'";
  return {};
}

}  // namespace simjoin::ui::testing
