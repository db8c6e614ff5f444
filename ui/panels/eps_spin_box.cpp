#include "ui/panels/eps_spin_box.hpp"

#include <cmath>

#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>

#include "core/join/eps_rule.hpp"
#include "core/options/option_schema.hpp"
#include "core/points/eps_estimate.hpp"

namespace simjoin::ui {

namespace {
// Steps keep three significant digits, so that stepping reads 0.1, 0.126, 0.158, ...
constexpr int kStepDigits = 3;
}  // namespace

std::optional<double> parse_eps(const QString& text) { return option_schema::parse_eps(text.toStdString()); }

QString format_eps(double eps) { return QString::number(eps, 'g', QLocale::FloatingPointShortest); }

EpsSpinBox::EpsSpinBox(QWidget* parent) : QAbstractSpinBox(parent) {
  setToolTip(tr("Any number >= 0, e.g. 0.25, 2000 or 5e-3 (0: the exact duplicates)"));
  lineEdit()->setText(format_eps(value_));
  setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0.000123456789")) + 30);
  // Every acceptable edit is the new value at once; the text is tidied when editing ends.
  connect(lineEdit(), &QLineEdit::textEdited, this, [this](const QString& text) {
    if (const auto value = parse_eps(text)) adopt(*value);
  });
  connect(this, &QAbstractSpinBox::editingFinished, this, [this] { lineEdit()->setText(format_eps(value_)); });
}

void EpsSpinBox::setValue(double value) {
  if (!eps_allowed(value)) return;
  lineEdit()->setText(format_eps(value));
  adopt(value);
}

void EpsSpinBox::adopt(double value) {
  if (value == value_) return;
  value_ = value;
  if (value > 0) last_positive_ = value;
  emit valueChanged(value_);
}

void EpsSpinBox::stepBy(int steps) {
  // No multiple of 0 leaves it: stepping up from 0 returns to the last positive value.
  if (value_ == 0) {
    if (steps > 0) setValue(last_positive_);
    return;
  }
  setValue(round_significant(value_ * std::pow(10.0, steps / 10.0), kStepDigits));
}

QValidator::State EpsSpinBox::validate(QString& input, int&) const {
  if (parse_eps(input)) return QValidator::Acceptable;
  // What typing may still turn into a number: "", "0.", "5e", "1e-".
  static const QRegularExpression partial(QStringLiteral("^\\s*[0-9]*\\.?[0-9]*([eE][+-]?[0-9]*)?\\s*$"));
  return partial.match(input).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

void EpsSpinBox::fixup(QString& input) const {
  if (!parse_eps(input)) input = format_eps(value_);
}

}  // namespace simjoin::ui
