#include "ui/panels/run_status.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

namespace simjoin::ui {

RunStatus::RunStatus(QWidget* parent)
    : QWidget(parent),
      auto_run_(new QCheckBox(tr("Auto-run on eps / k changes"))),
      bar_(new QProgressBar),
      phase_(new QLabel(tr("Not run yet."))) {
  auto_run_->setObjectName("autoRun");
  auto_run_->setToolTip(tr("Run the join again a moment after eps or k changes"));
  bar_->setRange(0, 1000);
  bar_->setTextVisible(false);
  // The bar keeps its room while hidden and the text has room for three lines, so that nothing in
  // the panel moves as a run starts or ends (a click aimed at Cancel lands on Cancel).
  QSizePolicy keep = bar_->sizePolicy();
  keep.setRetainSizeWhenHidden(true);
  bar_->setSizePolicy(keep);
  bar_->setVisible(false);
  phase_->setWordWrap(true);
  phase_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  phase_->setFixedHeight(3 * phase_->fontMetrics().lineSpacing() + 2 * phase_->margin());
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(auto_run_);
  layout->addWidget(bar_);
  layout->addWidget(phase_);
}

void RunStatus::started(const QString& engine) {
  bar_->setValue(0);
  bar_->setVisible(true);
  phase_->setText(tr("Running %1...").arg(engine));
}

void RunStatus::progress(double fraction, const QString& phase) {
  bar_->setValue(static_cast<int>(fraction * 1000));
  if (!phase.isEmpty()) phase_->setText(phase);
}

void RunStatus::stopped(const QString& text) {
  bar_->setVisible(false);
  phase_->setText(text);
  phase_->setToolTip(text);  // whole, where three lines cut it off
}

QString RunStatus::text() const { return phase_->text(); }

}  // namespace simjoin::ui
