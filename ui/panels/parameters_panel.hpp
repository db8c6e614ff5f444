#pragma once
// The Parameters dock: engine (unavailable ones greyed out with the reason), eps (an entry for any
// positive number and a log-scale slider over the range the loaded data spans, kept in step, with
// the eps suggested by the data), k, device, and the Run/Cancel area. Each of engine, eps and k says
// in its tooltip where its value comes from (the command line, saved settings, the data, the window).
#include <QWidget>

#include "core/join/engine.hpp"
#include "core/points/eps_estimate.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace simjoin::ui {

class EpsSpinBox;

enum class Setting { Engine, Eps, K };

class ParametersPanel : public QWidget {
  Q_OBJECT

 public:
  ParametersPanel(const EngineRegistry& registry, const QStringList& devices, QWidget* parent = nullptr);

  QString engine() const;
  // False when no such engine or it is unavailable.
  bool setEngine(const QString& name);
  double eps() const;
  // Ignored unless positive and finite; values outside the slider's range pin it to an end.
  void setEps(double eps);
  int k() const;
  void setK(int k);
  int device() const;  // GPU ordinal; -1: no GPU; -2: every GPU
  JoinParams params() const;
  // The data's scale: the slider's range and the suggested eps shown under it (eps is unchanged).
  void setEstimate(const EpsEstimate& estimate);
  const EpsEstimate& estimate() const { return estimate_; }

  // Where the value of `setting` comes from ("the command line (--eps)"), shown in its tooltip; a
  // person's change in the panel replaces it with "set in the window".
  void setSource(Setting setting, const QString& source);
  QString source(Setting setting) const;

  // Enables Run or Cancel as a run starts or ends.
  void setRunning(bool running);
  // A place for run-related controls added later (progress, sweeps).
  QVBoxLayout* runArea() const { return run_area_; }
  EpsSpinBox* epsBox() const { return eps_box_; }
  QSlider* epsSlider() const { return eps_slider_; }
  QLabel* suggestion() const { return suggestion_; }

 signals:
  void changed();
  // A person chose an engine in the box (never a choice made by the program).
  void engineChosen(const QString& name);
  void runRequested();
  void cancelRequested();

 private:
  void layOut();
  void connectControls();
  void syncSlider();
  void showSources();
  // Marks `setting` as set in the window, unless the program itself is setting it.
  void setByPerson(Setting setting);

  QComboBox* engine_;
  QSlider* eps_slider_;
  EpsSpinBox* eps_box_;
  QLabel* suggestion_;
  QSpinBox* k_;
  QComboBox* device_;
  QPushButton* run_;
  QPushButton* cancel_;
  QVBoxLayout* run_area_;
  EpsEstimate estimate_;
  QString sources_[3];
  bool applying_ = false;  // setEps/setK at work: the change is not a person's
};

}  // namespace simjoin::ui
