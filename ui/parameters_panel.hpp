#pragma once
// The Parameters dock: engine (unavailable ones greyed out with the reason), eps (log-scale slider
// and exact spin box kept in step), k, device, and the Run/Cancel area.
#include <QWidget>

#include "core/engine.hpp"

class QComboBox;
class QDoubleSpinBox;
class QPushButton;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace simjoin::ui {

class ParametersPanel : public QWidget {
  Q_OBJECT

 public:
  ParametersPanel(const EngineRegistry& registry, const QStringList& devices, QWidget* parent = nullptr);

  QString engine() const;
  // False when no such engine or it is unavailable.
  bool setEngine(const QString& name);
  double eps() const;
  void setEps(double eps);
  int k() const;
  void setK(int k);
  int device() const;  // GPU ordinal; -1: no GPU; -2: every GPU
  JoinParams params() const;

  // Enables Run or Cancel as a run starts or ends.
  void setRunning(bool running);
  // A place for run-related controls added later (progress, sweeps).
  QVBoxLayout* runArea() const { return run_area_; }

 signals:
  void changed();
  void runRequested();
  void cancelRequested();

 private:
  void syncSliderFromSpin();

  QComboBox* engine_;
  QSlider* eps_slider_;
  QDoubleSpinBox* eps_spin_;
  QSpinBox* k_;
  QComboBox* device_;
  QPushButton* run_;
  QPushButton* cancel_;
  QVBoxLayout* run_area_;
};

// Slider position (0..1000) <-> eps on a log scale over [1e-6, 1e3].
int eps_to_slider(double eps);
double slider_to_eps(int position);

}  // namespace simjoin::ui
