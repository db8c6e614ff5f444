#pragma once
// An eps entry that takes any finite number >= 0, plain or in scientific notation ("2000",
// "5e3", "1e-9"), with no range of its own: data sets span nanometres to Earth radii. A value shows
// with exactly the digits it has: typed ones as typed, derived ones (the data's estimate, the
// slider, the arrows) rounded to the few digits their scale resolves. The arrows step by a tenth of
// a decade, Page Up/Down by a decade; up from 0, to the last positive value.
#include <optional>

#include <QAbstractSpinBox>

namespace simjoin::ui {

// The value of `text` when eps may be it (core/join/eps_rule.hpp; C locale, scientific notation allowed).
std::optional<double> parse_eps(const QString& text);
// The shortest text that reads back as `eps`.
QString format_eps(double eps);

class EpsSpinBox : public QAbstractSpinBox {
  Q_OBJECT

 public:
  explicit EpsSpinBox(QWidget* parent = nullptr);

  double value() const { return value_; }
  // Ignored unless finite and >= 0.
  void setValue(double value);

  void stepBy(int steps) override;
  QValidator::State validate(QString& input, int& pos) const override;
  void fixup(QString& input) const override;

 signals:
  void valueChanged(double value);

 protected:
  StepEnabled stepEnabled() const override { return StepUpEnabled | StepDownEnabled; }

 private:
  void adopt(double value);

  double value_ = 1;
  double last_positive_ = 1;
};

}  // namespace simjoin::ui
