#include "ui/run/run_controller.hpp"

#include <sys/resource.h>

#include <chrono>
#include <new>

#include "ui/run/result_guard.hpp"
#include "ui/run/run_execution.hpp"

namespace simjoin::ui {

namespace {
// Joins use every core; a lower scheduling priority for the worker (Linux nice values are per
// thread and inherited by the OpenMP threads it starts) keeps the GUI thread's ticks on time.
void lower_worker_priority() { setpriority(PRIO_PROCESS, 0, 10); }
}  // namespace

// One run's cancellation handle and progress throttle. The RunControl callback runs under the
// control's own lock, so the throttle state needs no further locking.
struct RunController::Job {
  Job(RunController* owner, quint64 run_id)
      : id(run_id), control([this, owner](double fraction, const std::string& phase) {
          const auto now = std::chrono::steady_clock::now();
          const bool phase_changed = phase != last_phase;
          if (!phase_changed && fraction < 1.0 &&
              now - last_emit < std::chrono::milliseconds(owner->progress_interval_ms_))
            return;
          last_emit = now;
          last_phase = phase;
          const QString text = QString::fromStdString(phase);
          const quint64 job_id = id;
          QMetaObject::invokeMethod(
              owner, [owner, job_id, fraction, text] { owner->deliverProgress(job_id, fraction, text); },
              Qt::QueuedConnection);
        }) {}

  void cancel() {
    control.request_cancel();
    guard.request_cancel();
  }

  quint64 id;
  RunControl control;
  RunControl guard;  // the result estimate of the guard, whose progress is not the run's
  std::chrono::steady_clock::time_point last_emit{};
  std::string last_phase;
};

RunController::RunController(const EngineRegistry& registry, QObject* parent) : QObject(parent), registry_(registry) {
  qRegisterMetaType<RunRecordPtr>();
  qRegisterMetaType<RunFailure>();
  pool_.setMaxThreadCount(1);
  pool_.setExpiryTimeout(-1);
  debounce_.setSingleShot(true);
  debounce_.setInterval(300);
  connect(&debounce_, &QTimer::timeout, this, [this] { start(request_); });
}

RunController::~RunController() {
  if (current_job_) current_job_->cancel();
  pool_.waitForDone();
}

quint64 RunController::start(RunRequest request) {
  debounce_.stop();
  if (current_job_) current_job_->cancel();
  const quint64 id = next_id_++;
  current_id_ = id;
  running_ = true;
  auto job = std::make_shared<Job>(this, id);
  current_job_ = job;
  pool_.start([this, job, request = std::move(request)] {
    const auto post_failure = [&](ErrorKind kind, const std::string& what) {
      RunFailure failure = describe_failure(registry_, request.engine, kind, what);
      QMetaObject::invokeMethod(
          this, [this, id = job->id, failure] { deliverFailure(id, failure); }, Qt::QueuedConnection);
    };
    lower_worker_priority();
    try {
      job->control.throw_if_cancelled();
      if (const auto pairs = result_needing_confirmation(request, job->guard)) {
        QMetaObject::invokeMethod(
            this, [this, id = job->id, pairs = *pairs] { deliverConfirmation(id, pairs); }, Qt::QueuedConnection);
        return;
      }
      auto record = std::make_shared<RunRecord>(execute_run(registry_, request, job->control));
      QMetaObject::invokeMethod(
          this, [this, id = job->id, record] { deliverFinished(id, record); }, Qt::QueuedConnection);
    } catch (const Error& error) {
      post_failure(error.kind(), error.what());
    } catch (const std::bad_alloc&) {
      post_failure(ErrorKind::OutOfMemory, "host memory exhausted");
    } catch (const std::exception& error) {
      post_failure(ErrorKind::Internal, error.what());
    }
  });
  emit runStarted(id);
  return id;
}

void RunController::cancel() {
  debounce_.stop();
  if (current_job_) current_job_->cancel();
}

void RunController::setAutoRun(bool enabled) {
  auto_run_ = enabled;
  if (!enabled) debounce_.stop();
}

void RunController::setRequest(RunRequest request) {
  request_ = std::move(request);
  if (!auto_run_) return;
  // The run in progress is stale now: stop it at once rather than after the debounce.
  if (current_job_) current_job_->cancel();
  current_id_ = 0;
  running_ = false;
  debounce_.start();
}

void RunController::deliverProgress(quint64 id, double fraction, const QString& phase) {
  if (id != current_id_ || !running_) return;
  emit runProgress(id, fraction, phase);
}

void RunController::deliverFinished(quint64 id, std::shared_ptr<RunRecord> record) {
  if (id != current_id_) return;
  running_ = false;
  current_job_.reset();
  record->id = next_number_++;
  emit runFinished(id, std::move(record));
}

void RunController::deliverConfirmation(quint64 id, double pairs) {
  if (id != current_id_) return;
  running_ = false;
  current_job_.reset();
  emit runNeedsConfirmation(id, pairs);
}

void RunController::deliverFailure(quint64 id, RunFailure failure) {
  if (id != current_id_) return;
  running_ = false;
  current_job_.reset();
  if (failure.kind == ErrorKind::Cancelled)
    emit runCancelled(id);
  else
    emit runFailed(id, failure);
}

RunFailure describe_failure(const EngineRegistry& registry, const std::string& engine, ErrorKind kind,
                            const std::string& what) {
  const Engine* found = registry.find(engine);
  const bool gpu = found && found->capabilities().gpu;
  RunFailure failure;
  failure.kind = kind;
  failure.cpu_fallback = gpu && (kind == ErrorKind::OutOfMemory || kind == ErrorKind::Unavailable);
  std::string message;
  switch (kind) {
    case ErrorKind::OutOfMemory:
      message = engine + " ran out of memory: " + what;
      break;
    case ErrorKind::Internal:
      message = "internal error in " + engine + ": " + what;
      break;
    default:
      message = what;
  }
  if (failure.cpu_fallback) message += ". A CPU engine can run this join instead.";
  failure.message = QString::fromStdString(message);
  return failure;
}

}  // namespace simjoin::ui
