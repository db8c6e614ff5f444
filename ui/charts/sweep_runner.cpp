#include "ui/charts/sweep_runner.hpp"

#include <algorithm>
#include <set>

#include "core/base/error.hpp"
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

SweepRunner::SweepRunner(const EngineRegistry& registry, QObject* parent) : QObject(parent), registry_(registry) {
  qRegisterMetaType<SweepPoint>();
  pool_.setMaxThreadCount(1);
}

SweepRunner::~SweepRunner() {
  cancel();
  pool_.waitForDone();
}

std::vector<SweepPoint> SweepRunner::run(const SweepSpec& raw, RunControl& control, const OnPoint& on_point) const {
  const SweepSpec spec = raw.normalized();
  std::set<std::string> ignore_k;
  std::size_t total = spec.size();
  std::vector<SweepPoint> points;
  for (double eps : spec.eps_values)
    for (int k : spec.k_values)
      for (const std::string& engine : spec.engines) {
        if (k != spec.k_values.front() && ignore_k.count(engine)) continue;
        RunRequest request;
        request.engine = engine;
        request.a = spec.a;
        request.b = spec.b;
        request.params = spec.base;
        request.params.eps = eps;
        request.params.k = k;
        request.keep_pairs_limit = 0;  // count only
        SweepPoint point{engine, eps, k};
        std::vector<double> seconds;
        run_repeated(spec.timing, [&](bool timed) {
          control.throw_if_cancelled();
          const RunRecord record = execute_run(registry_, request, control);
          if (!timed) return;
          seconds.push_back(record.result.stats.seconds_total);
          point.stats = record.result.stats;
          point.uses_k = record.result.partitions.has_value();
          point.partition_sizes.clear();
          if (point.uses_k) point.partition_sizes = partition_sizes(*record.result.partitions);
        });
        point.seconds = spread_of(seconds);
        point.timed_runs = int(seconds.size());
        if (!point.uses_k && ignore_k.insert(engine).second)
          total -= (spec.k_values.size() - 1) * spec.eps_values.size();
        if (on_point) on_point(point, total);
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
      int index = 0;
      run(spec, *control, [&](const SweepPoint& point, std::size_t total) {
        post([this, point, index, total = int(total)] { emit pointReady(point, index, total); });
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
