#pragma once
// The names VTK's file formats give their number types.
#include <optional>
#include <string_view>

#include "core/io/binary_values.hpp"

namespace simjoin {

// XML DataArray types: "Float32", "Int64", ...
std::optional<NumberType> vtk_xml_number_type(std::string_view name);
// Legacy POINTS types: "float", "double", "unsigned_char", "vtktypeint64", ...
std::optional<NumberType> vtk_legacy_number_type(std::string_view name);

}  // namespace simjoin
