#pragma once
// The words of a PDF figure and their boxes (pdftotext -bbox, poppler-utils), for the tests that
// measure figures' layouts in the files an author prints.
#include <QProcess>
#include <QRectF>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>

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

}  // namespace simjoin::ui::testing
