#include "ui/workbench/background_task.hpp"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QtConcurrent/QtConcurrentRun>

#include <new>

namespace simjoin::ui {

BackgroundTask::BackgroundTask(const QString& title, Job job, QWidget* parent)
    : QObject(parent), watcher_(new QFutureWatcher<Outcome>(this)), dialog_(new QProgressDialog(parent)) {
  dialog_->setWindowTitle(title);
  dialog_->setLabelText(title);
  dialog_->setRange(0, 1000);
  dialog_->setMinimumDuration(400);
  dialog_->setAutoClose(false);
  dialog_->setAutoReset(false);
  dialog_->setValue(0);
  connect(dialog_, &QProgressDialog::canceled, this, &BackgroundTask::cancel);
  connect(this, &BackgroundTask::progress, dialog_, [this](double fraction, const QString& phase) {
    dialog_->setValue(static_cast<int>(fraction * 1000));
    if (!phase.isEmpty()) dialog_->setLabelText(phase);
  });

  // Progress arrives on the worker thread; a queued signal carries it to the dialog.
  control_ = std::make_unique<RunControl>(
      [this](double fraction, const std::string& phase) { emit progress(fraction, QString::fromStdString(phase)); });
  connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &BackgroundTask::onDone);
  RunControl* control = control_.get();
  watcher_->setFuture(QtConcurrent::run([job = std::move(job), control]() -> Outcome {
    try {
      job(*control);
      return {};
    } catch (const Error& e) {
      return {false, e.kind(), QString::fromUtf8(e.what())};
    } catch (const std::bad_alloc&) {
      return {false, ErrorKind::OutOfMemory, QStringLiteral("out of host memory")};
    } catch (const std::exception& e) {
      return {false, ErrorKind::Internal, QString::fromUtf8(e.what())};
    }
  }));
}

BackgroundTask::~BackgroundTask() {
  // The job references the control block: it must end before that is freed.
  if (watcher_->isRunning()) {
    control_->request_cancel();
    watcher_->waitForFinished();
  }
  delete dialog_;
}

void BackgroundTask::cancel() { control_->request_cancel(); }

void BackgroundTask::wait() {
  if (!running()) return;
  QEventLoop loop;
  connect(this, &BackgroundTask::finished, &loop, &QEventLoop::quit);
  loop.exec();
}

void BackgroundTask::onDone() {
  done_ = true;
  // Deleted, not hidden: a hidden dialog still shows itself when its minimum duration is up.
  delete dialog_;
  dialog_ = nullptr;
  const Outcome outcome = watcher_->result();
  error_kind_ = outcome.kind;
  const bool cancelled = (!outcome.ok && outcome.kind == ErrorKind::Cancelled) || control_->cancelled();
  emit finished(outcome.ok && !cancelled, cancelled, cancelled ? QString() : outcome.message);
}

}  // namespace simjoin::ui
