#include "ui/panels/parameters_panel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "ui/panels/eps_spin_box.hpp"

namespace simjoin::ui {

namespace {
constexpr int kSliderSteps = 1000;
// A slider step moves eps by a fraction of a per cent of a decade: three digits resolve it.
constexpr int kSliderDigits = 3;
constexpr int kAllGpus = -2;  // device combo data: every GPU

// Slider position <-> eps on a log scale over [low, high]; eps outside pins the slider to an end.
// In logarithms: a range from a subnormal to near 1e308 has a ratio beyond the doubles.
int eps_to_slider(double eps, double low, double high) {
  const double t = (std::log(eps) - std::log(low)) / (std::log(high) - std::log(low));
  return static_cast<int>(std::lround(std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * kSliderSteps));
}

double slider_to_eps(int position, double low, double high) {
  const double t = double(position) / kSliderSteps;
  return std::exp(std::log(low) + t * (std::log(high) - std::log(low)));
}

// Every engine of the registry; one that cannot run here is greyed out and not selectable, and its
// tooltip says why.
QStandardItemModel* engine_model(const EngineRegistry& registry, QObject* parent) {
  auto* model = new QStandardItemModel(parent);
  for (const auto& engine : registry.engines()) {
    auto* item = new QStandardItem(QString::fromStdString(engine->name()));
    const Availability availability = engine->availability();
    QString tip = QString::fromStdString(engine->description());
    if (!availability.available) {
      item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
      tip = ParametersPanel::tr("Unavailable: %1").arg(QString::fromStdString(availability.reason));
    }
    item->setToolTip(tip);
    model->appendRow(item);
  }
  return model;
}

// Each GPU, and every GPU together where there are several (the default: the last entry).
void fill_devices(QComboBox& device, const QStringList& devices) {
  if (devices.isEmpty()) device.addItem(ParametersPanel::tr("none (CPU only)"), -1);
  for (int i = 0; i < devices.size(); ++i) device.addItem(devices[i], i);
  if (devices.size() > 1) {
    device.addItem(ParametersPanel::tr("all %1 GPUs").arg(devices.size()), kAllGpus);
    device.setItemData(device.count() - 1,
                       ParametersPanel::tr("gpu-grid and gpu-kmeans split the work across every GPU; "
                                           "the other GPU engines run on GPU 0"),
                       Qt::ToolTipRole);
  }
  device.setCurrentIndex(device.count() - 1);
}
}  // namespace

ParametersPanel::ParametersPanel(const EngineRegistry& registry, const QStringList& devices, QWidget* parent)
    : QWidget(parent),
      engine_(new QComboBox),
      eps_slider_(new QSlider(Qt::Horizontal)),
      eps_box_(new EpsSpinBox),
      suggestion_(new QLabel),
      k_(new QSpinBox),
      device_(new QComboBox),
      run_(new QPushButton(tr("Run"))),
      cancel_(new QPushButton(tr("Cancel"))),
      run_area_(new QVBoxLayout) {
  engine_->setModel(engine_model(registry, engine_));
  engine_->setObjectName("engine");

  eps_slider_->setRange(0, kSliderSteps);
  eps_box_->setObjectName("eps");
  suggestion_->setObjectName("epsSuggestion");
  suggestion_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  // No cap of its own: each engine applies its rule, as on the command line (gpu-kmeans refuses k
  // above 4096 with that limit in its message; cpu-kmeans takes any k).
  k_->setRange(0, std::numeric_limits<int>::max());
  k_->setSpecialValueText(tr("auto"));
  fill_devices(*device_, devices);
  run_->setObjectName("run");
  cancel_->setObjectName("cancel");
  cancel_->setEnabled(false);
  run_->setShortcut(Qt::Key_F5);
  run_->setToolTip(tr("Run the join (F5)"));

  layOut();
  connectControls();
  setEstimate(estimate_);
  setEps(estimate_.eps);
  showSources();
}

void ParametersPanel::layOut() {
  auto* form = new QFormLayout;
  form->addRow(tr("Engine"), engine_);
  form->addRow(tr("eps"), eps_box_);
  form->addRow(QString(), eps_slider_);
  form->addRow(QString(), suggestion_);
  form->addRow(tr("k"), k_);
  form->addRow(tr("Device"), device_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addLayout(run_area_);
  layout->addStretch();
}

void ParametersPanel::connectControls() {
  connect(eps_slider_, &QSlider::valueChanged, this, [this](int position) {
    const QSignalBlocker block(eps_box_);
    eps_box_->setValue(round_significant(slider_to_eps(position, estimate_.low(), estimate_.high()), kSliderDigits));
    setByPerson(Setting::Eps);
    emit changed();
  });
  connect(eps_box_, &EpsSpinBox::valueChanged, this, [this] {
    syncSlider();
    setByPerson(Setting::Eps);
    emit changed();
  });
  connect(suggestion_, &QLabel::linkActivated, this, [this] {
    setEps(estimate_.eps);
    setSource(Setting::Eps, tr("suggested by the data"));
  });
  connect(k_, &QSpinBox::valueChanged, this, [this] {
    setByPerson(Setting::K);
    emit changed();
  });
  connect(engine_, &QComboBox::currentIndexChanged, this, &ParametersPanel::changed);
  connect(engine_, &QComboBox::activated, this, [this] {
    setSource(Setting::Engine, tr("chosen in the window (saved)"));
    emit engineChosen(engine());
  });
  connect(run_, &QPushButton::clicked, this, &ParametersPanel::runRequested);
  connect(cancel_, &QPushButton::clicked, this, &ParametersPanel::cancelRequested);
}

void ParametersPanel::syncSlider() {
  const QSignalBlocker block(eps_slider_);
  eps_slider_->setValue(eps_to_slider(eps_box_->value(), estimate_.low(), estimate_.high()));
}

void ParametersPanel::setEstimate(const EpsEstimate& estimate) {
  estimate_ = estimate;
  syncSlider();
  suggestion_->setVisible(estimate.queries > 0);
  suggestion_->setText(tr("suggested by the data: <a href=\"use\">%1</a>").arg(format_eps(estimate.eps)));
  suggestion_->setToolTip(
      tr("The median distance from a point to its 10th neighbour (%1 points measured against %2); click "
         "to use it. The slider spans %3 to %4: from a hundredth of the typical nearest-neighbour distance "
         "to the diameter.")
          .arg(estimate.queries)
          .arg(estimate.reference)
          .arg(format_eps(round_significant(estimate.low(), kSliderDigits)))
          .arg(format_eps(round_significant(estimate.high(), kSliderDigits))));
}

QString ParametersPanel::engine() const { return engine_->currentText(); }

bool ParametersPanel::setEngine(const QString& name) {
  const int index = engine_->findText(name);
  auto* model = static_cast<QStandardItemModel*>(engine_->model());
  if (index < 0 || !(model->item(index)->flags() & Qt::ItemIsEnabled)) return false;
  engine_->setCurrentIndex(index);
  return true;
}

double ParametersPanel::eps() const { return eps_box_->value(); }
void ParametersPanel::setEps(double eps) {
  applying_ = true;
  eps_box_->setValue(eps);
  syncSlider();
  applying_ = false;
}
int ParametersPanel::k() const { return k_->value(); }
void ParametersPanel::setK(int k) {
  applying_ = true;
  k_->setValue(k);
  applying_ = false;
}

void ParametersPanel::setSource(Setting setting, const QString& source) {
  sources_[static_cast<int>(setting)] = source;
  showSources();
}

QString ParametersPanel::source(Setting setting) const { return sources_[static_cast<int>(setting)]; }

void ParametersPanel::setByPerson(Setting setting) {
  if (!applying_) setSource(setting, tr("set in the window"));
}

void ParametersPanel::showSources() {
  const auto tip = [this](Setting setting, const QString& what) {
    const QString& source = sources_[static_cast<int>(setting)];
    return source.isEmpty() ? what : tr("%1\nFrom: %2").arg(what, source);
  };
  engine_->setToolTip(tip(Setting::Engine, tr("The engine that runs the join")));
  eps_box_->setToolTip(
      tip(Setting::Eps,
          tr("The join's distance threshold, any number >= 0: e.g. 0.25, 2000 or 5e-3 (0: the exact duplicates)")));
  k_->setToolTip(tip(Setting::K, tr("Partitions of the k-means engines (auto: the engine's choice)")));
}
int ParametersPanel::device() const { return device_->currentData().toInt(); }

JoinParams ParametersPanel::params() const {
  JoinParams params;
  params.eps = eps();
  params.k = k();
  if (device() >= 0) params.devices = {device()};  // kAllGpus: empty, every GPU
  return params;
}

void ParametersPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
}

}  // namespace simjoin::ui
