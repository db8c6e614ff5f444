#include "ui/charts/sweep_runner.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "ui/run/partition_sizes.hpp"
#include "ui/run/run_execution.hpp"

namespace simjoin::ui {

namespace {
template <typename T>
std::vector<T> sorted_unique(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

std::size_t SweepSpec::size() const {
  return engines.size() * eps_values.size() * std::max<std::size_t>(1, k_values.size());
}

SweepSpec SweepSpec::normalized() const {
  SweepSpec spec = *this;
  spec.eps_values = sorted_unique(eps_values);
  spec.k_values = sorted_unique(k_values.empty() ? std::vector<int>{base.k} : k_values);
  if (spec.engines.empty()) fail(ErrorKind::Usage, "a sweep needs at least one engine");
  if (spec.eps_values.empty()) fail(ErrorKind::Usage, "a sweep needs at least one eps value");
  if (!spec.a) fail(ErrorKind::Usage, "a sweep needs input points");
  return spec;
}

SweepRunner::SweepRunner(const EngineRegistry& registry, QObject* parent)
    : QObject(parent), registry_(registry) {
  qRegisterMetaType<SweepPoint>();
  pool_.setMaxThreadCount(1);
}

SweepRunner::~SweepRunner() {
  cancel();
  pool_.waitForDone();
}

std::vector<SweepPoint> SweepRunner::run(const SweepSpec& raw, RunControl& control,
                                         const std::function<void(const SweepPoint&)>& on_point) const {
  const SweepSpec spec = raw.normalized();
  std::vector<SweepPoint> points;
  for (double eps : spec.eps_values)
    for (int k : spec.k_values)
      for (const std::string& engine : spec.engines) {
        control.throw_if_cancelled();
        RunRequest request;
        request.engine = engine;
        request.a = spec.a;
        request.b = spec.b;
        request.params = spec.base;
        request.params.eps = eps;
        request.params.k = k;
        request.keep_pairs_limit = 0;  // count only
        const RunRecord record = execute_run(registry_, request, control);
        SweepPoint point{engine, eps, k, record.result.stats, {}};
        if (record.result.partitions) point.partition_sizes = partition_sizes(*record.result.partitions);
        if (on_point) on_point(point);
        points.push_back(std::move(point));
      }
  return points;
}

void SweepRunner::start(const SweepSpec& spec) {
  cancel();
  auto control = std::make_shared<RunControl>();
  control_ = control;
  const quint64 generation = ++generation_;
  running_ = true;
  const auto post = [this, generation](auto deliver) {
    QMetaObject::invokeMethod(
        this,
        [this, generation, deliver] {
          if (generation == generation_) deliver();
        },
        Qt::QueuedConnection);
  };
  pool_.start([this, spec, control, post] {
    try {
      const int total = int(spec.normalized().size());
      int index = 0;
      run(spec, *control, [&](const SweepPoint& point) {
        post([this, point, index, total] { emit pointReady(point, index, total); });
        ++index;
      });
      post([this, index] {
        running_ = false;
        emit finished(index);
      });
    } catch (const Error& error) {
      const bool was_cancelled = error.kind() == ErrorKind::Cancelled;
      const QString message = QString::fromStdString(error.what());
      post([this, was_cancelled, message] {
        running_ = false;
        if (was_cancelled)
          emit cancelled();
        else
          emit failed(message);
      });
    } catch (const std::exception& error) {
      const QString message = QString::fromStdString(error.what());
      post([this, message] {
        running_ = false;
        emit failed(message);
      });
    }
  });
}

void SweepRunner::cancel() {
  if (control_) control_->request_cancel();
}

}  // namespace simjoin::ui
