#pragma once
// Runs one long job (loading a file, a join) on a worker thread with a progress dialog whose Cancel
// button requests cancellation through RunControl. The GUI thread keeps handling events. The dialog
// goes as the job ends, before `finished` is emitted, so nothing it shows outlives the job.
#include <functional>
#include <memory>

#include <QObject>
#include <QString>

#include "core/base/error.hpp"
#include "core/base/run_control.hpp"

class QProgressDialog;
template <typename T>
class QFutureWatcher;

namespace simjoin::ui {

class BackgroundTask : public QObject {
  Q_OBJECT

 public:
  using Job = std::function<void(RunControl&)>;

  // Starts `job` at once; the dialog appears when it takes longer than a moment.
  BackgroundTask(const QString& title, Job job, QWidget* parent);
  ~BackgroundTask() override;

  void cancel();
  bool running() const { return !done_; }
  // The kind of the error the job failed with (valid once `finished` reported one).
  ErrorKind errorKind() const { return error_kind_; }
  // Blocks (processing events) until the job has finished.
  void wait();

 signals:
  // After the job returned: ok, or the error message (empty when cancelled by the user).
  void finished(bool ok, bool cancelled, const QString& error);
  void progress(double fraction, const QString& phase);

 private:
  struct Outcome {
    bool ok = true;
    ErrorKind kind = ErrorKind::Internal;
    QString message;
  };

  void onDone();

  std::unique_ptr<RunControl> control_;
  QFutureWatcher<Outcome>* watcher_;
  QProgressDialog* dialog_;
  bool done_ = false;
  ErrorKind error_kind_ = ErrorKind::Internal;
};

}  // namespace simjoin::ui
