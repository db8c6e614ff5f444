#include "ui/run/run_staleness.hpp"

#include <QStringList>

namespace simjoin::ui {

QString stale_reason(const RunRecord& shown, const RunRequest& asked, bool cancelled_since) {
  const RunRequest& ran = shown.request;
  QStringList changed;
  if (ran.params.eps != asked.params.eps) changed << "eps";
  if (ran.params.k != asked.params.k) changed << "k";
  if (ran.engine != asked.engine) changed << "the engine";
  if (ran.params.devices != asked.params.devices) changed << "the device";
  QStringList why;
  if (!changed.isEmpty()) why << QString("%1 changed since").arg(changed.join(", "));
  if (cancelled_since) why << "the run after it was cancelled";
  if (why.isEmpty()) return {};
  return QString("Stale: showing run #%1 (%2, eps %3); %4. Run again to update.")
      .arg(shown.id)
      .arg(QString::fromStdString(shown.result.stats.engine))
      .arg(ran.params.eps, 0, 'g', 6)
      .arg(why.join("; "));
}

}  // namespace simjoin::ui
