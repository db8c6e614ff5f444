#pragma once
// The run area under the Run/Cancel buttons: an "Auto-run" switch and the progress of the run in
// progress (bar and phase).
#include <QWidget>

class QCheckBox;
class QLabel;
class QProgressBar;

namespace simjoin::ui {

class RunStatus : public QWidget {
  Q_OBJECT

 public:
  explicit RunStatus(QWidget* parent = nullptr);

  QCheckBox* autoRun() const { return auto_run_; }
  void started(const QString& engine);
  void progress(double fraction, const QString& phase);
  // The run ended; `text` says how (pairs and time, cancelled, failed).
  void stopped(const QString& text);
  QString text() const;

 private:
  QCheckBox* auto_run_;
  QProgressBar* bar_;
  QLabel* phase_;
};

}  // namespace simjoin::ui
