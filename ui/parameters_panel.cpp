#include "ui/parameters_panel.hpp"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace simjoin::ui {

namespace {
constexpr double kLogLow = -6, kLogHigh = 3;
constexpr int kSliderSteps = 1000;
constexpr int kAllGpus = -2;  // device combo data: every GPU
}  // namespace

int eps_to_slider(double eps) {
  const double t = (std::log10(std::max(eps, 1e-12)) - kLogLow) / (kLogHigh - kLogLow);
  return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double slider_to_eps(int position) {
  return std::pow(10.0, kLogLow + (kLogHigh - kLogLow) * position / kSliderSteps);
}

ParametersPanel::ParametersPanel(const EngineRegistry& registry, const QStringList& devices,
                                 QWidget* parent)
    : QWidget(parent),
      engine_(new QComboBox),
      eps_slider_(new QSlider(Qt::Horizontal)),
      eps_spin_(new QDoubleSpinBox),
      k_(new QSpinBox),
      device_(new QComboBox),
      run_(new QPushButton(tr("Run"))),
      cancel_(new QPushButton(tr("Cancel"))),
      run_area_(new QVBoxLayout) {
  auto* model = new QStandardItemModel(engine_);
  for (const auto& engine : registry.engines()) {
    auto* item = new QStandardItem(QString::fromStdString(engine->name()));
    const Availability availability = engine->availability();
    QString tip = QString::fromStdString(engine->description());
    if (!availability.available) {
      // Greyed out and not selectable; the tooltip says why.
      item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
      tip = tr("Unavailable: %1").arg(QString::fromStdString(availability.reason));
    }
    item->setToolTip(tip);
    model->appendRow(item);
  }
  engine_->setModel(model);

  eps_slider_->setRange(0, kSliderSteps);
  eps_spin_->setDecimals(6);
  eps_spin_->setRange(1e-6, 1e3);
  eps_spin_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  k_->setRange(0, 4096);
  k_->setSpecialValueText(tr("auto"));
  if (devices.isEmpty()) device_->addItem(tr("none (CPU only)"), -1);
  for (int i = 0; i < devices.size(); ++i) device_->addItem(devices[i], i);
  if (devices.size() > 1) {
    device_->addItem(tr("all %1 GPUs").arg(devices.size()), kAllGpus);
    device_->setItemData(device_->count() - 1, tr("gpu-grid and gpu-kmeans split the work across every GPU; "
                                                   "the other GPU engines run on GPU 0"),
                         Qt::ToolTipRole);
  }
  device_->setCurrentIndex(device_->count() - 1);
  cancel_->setEnabled(false);
  run_->setShortcut(Qt::Key_F5);
  run_->setToolTip(tr("Run the join (F5)"));

  auto* form = new QFormLayout;
  form->addRow(tr("Engine"), engine_);
  form->addRow(tr("eps"), eps_spin_);
  form->addRow(QString(), eps_slider_);
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

  connect(eps_slider_, &QSlider::valueChanged, this, [this](int position) {
    const QSignalBlocker block(eps_spin_);
    eps_spin_->setValue(slider_to_eps(position));
    emit changed();
  });
  connect(eps_spin_, &QDoubleSpinBox::valueChanged, this, [this] {
    syncSliderFromSpin();
    emit changed();
  });
  connect(k_, &QSpinBox::valueChanged, this, &ParametersPanel::changed);
  connect(engine_, &QComboBox::currentIndexChanged, this, &ParametersPanel::changed);
  connect(run_, &QPushButton::clicked, this, &ParametersPanel::runRequested);
  connect(cancel_, &QPushButton::clicked, this, &ParametersPanel::cancelRequested);
  setEps(0.1);
}

void ParametersPanel::syncSliderFromSpin() {
  const QSignalBlocker block(eps_slider_);
  eps_slider_->setValue(eps_to_slider(eps_spin_->value()));
}

QString ParametersPanel::engine() const { return engine_->currentText(); }

bool ParametersPanel::setEngine(const QString& name) {
  const int index = engine_->findText(name);
  auto* model = static_cast<QStandardItemModel*>(engine_->model());
  if (index < 0 || !(model->item(index)->flags() & Qt::ItemIsEnabled)) return false;
  engine_->setCurrentIndex(index);
  return true;
}

double ParametersPanel::eps() const { return eps_spin_->value(); }
void ParametersPanel::setEps(double eps) {
  eps_spin_->setValue(eps);
  syncSliderFromSpin();
}
int ParametersPanel::k() const { return k_->value(); }
void ParametersPanel::setK(int k) { k_->setValue(k); }
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
