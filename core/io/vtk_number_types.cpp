#include "core/io/vtk_number_types.hpp"

#include <utility>

namespace simjoin {

std::optional<NumberType> vtk_xml_number_type(std::string_view name) {
  static const std::pair<std::string_view, NumberType> types[] = {
      {"Int8", NumberType::Int8},      {"UInt8", NumberType::UInt8},   {"Int16", NumberType::Int16},
      {"UInt16", NumberType::UInt16},  {"Int32", NumberType::Int32},   {"UInt32", NumberType::UInt32},
      {"Int64", NumberType::Int64},    {"UInt64", NumberType::UInt64}, {"Float32", NumberType::Float32},
      {"Float64", NumberType::Float64}};
  for (const auto& [text, type] : types)
    if (name == text) return type;
  return std::nullopt;
}

std::optional<NumberType> vtk_legacy_number_type(std::string_view name) {
  static const std::pair<std::string_view, NumberType> types[] = {
      {"char", NumberType::Int8},          {"unsigned_char", NumberType::UInt8},
      {"short", NumberType::Int16},        {"unsigned_short", NumberType::UInt16},
      {"int", NumberType::Int32},          {"unsigned_int", NumberType::UInt32},
      {"long", NumberType::Int64},         {"unsigned_long", NumberType::UInt64},
      {"vtktypeint64", NumberType::Int64}, {"vtktypeuint64", NumberType::UInt64},
      {"vtkIdType", NumberType::Int64},    {"float", NumberType::Float32},
      {"double", NumberType::Float64}};
  for (const auto& [text, type] : types)
    if (name == text) return type;
  return std::nullopt;
}

}  // namespace simjoin
