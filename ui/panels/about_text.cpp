#include "ui/panels/about_text.hpp"

#include <QObject>

namespace simjoin::ui {

QString about_text(const QString& version) {
  // The titles as the papers print them (../shared/papers); venues as their reference lists give them.
  const QString papers[] = {
      "Z. Korkmaz. <i>Improving the Performance of Similarity Joins Using Graphics Processing Unit</i>. "
      "M.S. thesis, Bilkent University, Ankara, 2012. (KMEANS-JOIN, APRX-KMEANS-JOIN)",
      "M. Gowanlock and B. Karsin. <i>GPU Accelerated Self-join for the Distance Similarity Metric</i>. "
      "IEEE International Parallel and Distributed Processing Symposium Workshops (IPDPSW), 2018. "
      "(GPU-SJ: the &epsilon;-grid, unicomp, batching)",
      "C. B&ouml;hm, R. Noll, C. Plant and A. Zherdin. <i>Index-supported Similarity Join on Graphics "
      "Processors</i>. BTW 2009, pp. 57&ndash;66. (the GPU nested loop join and its index)",
      "M. D. Lieberman, J. Sankaranarayanan and H. Samet. <i>A Fast Similarity Join Algorithm Using Graphics "
      "Processing Units</i>. IEEE 24th International Conference on Data Engineering (ICDE), 2008, "
      "pp. 1111&ndash;1120. (LSS: shifted space-filling curves)",
  };
  QString html = QObject::tr(
                     "<h3>Simjoin Studio %1</h3>"
                     "<p>The &epsilon;-similarity join on CPUs and GPUs: exact engines checked against a "
                     "float64 brute force, with views of the k-means partitions, replication and the "
                     "&epsilon;-grid, step-throughs and lessons.</p>")
                     .arg(version.toHtmlEscaped());
  html += QObject::tr(
      "<p>Documentation, in the source tree: README.md (building, the programs, exit codes), "
      "docs/teaching.md (lessons and step-throughs), docs/python.md, docs/benchmarks.md, "
      "docs/ARCHITECTURE.md. <code>simjoin-studio --help</code> and <code>simjoin --help</code> "
      "list the options.</p>");
  html += QObject::tr("<p>If you use it in research, please cite the papers whose algorithms it follows:</p><ol>");
  for (const QString& paper : papers) html += "<li>" + paper + "</li>";
  return html + "</ol>";
}

}  // namespace simjoin::ui
