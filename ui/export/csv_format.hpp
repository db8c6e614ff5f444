#pragma once
// Field formatting for the CSV files the charts write: numbers in their shortest exact form (they
// read back to the same double) and text quoted only where CSV needs it.
#include <string>

namespace simjoin::ui {

std::string format_number(double value);
std::string csv_field(const std::string& text);

}  // namespace simjoin::ui
