#pragma once
// Runs joins off the GUI thread. Every signal carries the run's id; a run superseded by a newer one
// is cancelled and whatever it still reports is dropped, so results never mix between runs.
// Progress is throttled before it crosses threads, so a fast engine cannot flood the event loop.
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <cstdint>
#include <memory>

#include "core/base/error.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

using RunRecordPtr = std::shared_ptr<const RunRecord>;

struct RunFailure {
  ErrorKind kind = ErrorKind::Internal;
  QString message;
  // True when a CPU engine could do this run instead (the GPU engine ran out of memory or is
  // missing); the window offers the fallback.
  bool cpu_fallback = false;
};

class RunController : public QObject {
  Q_OBJECT

 public:
  // The registry must outlive the controller.
  explicit RunController(const EngineRegistry& registry, QObject* parent = nullptr);
  // Cancels the current run and waits for the worker to stop.
  ~RunController() override;

  // Starts a run now (superseding any other); returns its id. A request with confirm_above_pairs
  // set first estimates its result, and one above that limit ends in runNeedsConfirmation instead.
  quint64 start(RunRequest request);
  // Cancels the current run; runCancelled follows once the engine has stopped.
  void cancel();
  bool running() const { return running_; }
  quint64 currentRunId() const { return current_id_; }

  // Auto-run: each setRequest() cancels the run in progress and starts the new request once no
  // further change arrives within the debounce interval. Without auto-run setRequest only stores.
  void setAutoRun(bool enabled);
  bool autoRun() const { return auto_run_; }
  void setRequest(RunRequest request);
  const RunRequest& request() const { return request_; }
  void setDebounceMs(int ms) { debounce_.setInterval(ms); }
  void setProgressIntervalMs(int ms) { progress_interval_ms_ = ms; }

 signals:
  void runStarted(quint64 id);
  void runProgress(quint64 id, double fraction, const QString& phase);
  void runFinished(quint64 id, simjoin::ui::RunRecordPtr record);
  void runFailed(quint64 id, const simjoin::ui::RunFailure& failure);
  void runCancelled(quint64 id);
  // The run did not start: about `pairs` pairs are expected, more than its request allows unasked.
  void runNeedsConfirmation(quint64 id, double pairs);

 private:
  struct Job;
  void deliverProgress(quint64 id, double fraction, const QString& phase);
  void deliverFinished(quint64 id, std::shared_ptr<RunRecord> record);
  void deliverFailure(quint64 id, RunFailure failure);
  void deliverConfirmation(quint64 id, double pairs);

  const EngineRegistry& registry_;
  QThreadPool pool_;  // one thread: a superseded run stops before the next one starts
  QTimer debounce_;
  RunRequest request_;
  bool auto_run_ = false;
  int progress_interval_ms_ = 40;
  quint64 next_id_ = 1;
  quint64 next_number_ = 1;  // finished runs are numbered on their own: superseded ones leave no gap
  quint64 current_id_ = 0;
  bool running_ = false;
  std::shared_ptr<Job> current_job_;
};

// A failure message for the user, naming the engine and what to do about it.
RunFailure describe_failure(const EngineRegistry& registry, const std::string& engine, ErrorKind kind,
                            const std::string& what);

}  // namespace simjoin::ui

Q_DECLARE_METATYPE(simjoin::ui::RunRecordPtr)
Q_DECLARE_METATYPE(simjoin::ui::RunFailure)
